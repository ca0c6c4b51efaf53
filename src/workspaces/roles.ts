export const roles = ['OWNER', 'ADMIN', 'MEMBER', 'VIEWER'] as const;
export type Role = (typeof roles)[number];

/** What each role may do, for every workspace-scoped endpoint of the service. The one place that decides. */
export const permissions = {
  'workspace:read': ['OWNER', 'ADMIN', 'MEMBER', 'VIEWER'],
  'workspace:delete': ['OWNER'],
  'members:read': ['OWNER', 'ADMIN', 'MEMBER', 'VIEWER'],
  'members:manage': ['OWNER', 'ADMIN'],
  /** Query tables, read their metadata, read charts, pages and saved queries. */
  'data:read': ['OWNER', 'ADMIN', 'MEMBER', 'VIEWER'],
  /** Push records, drop tables, run transforms and saved queries that write. */
  'data:write': ['OWNER', 'ADMIN', 'MEMBER'],
  /** Create and change connections, transforms, charts, pages and saved queries; trigger syncs. */
  'content:manage': ['OWNER', 'ADMIN', 'MEMBER'],
  /** List connections, their streams, sync jobs and state; test and preview their sources. */
  'connections:read': ['OWNER', 'ADMIN', 'MEMBER', 'VIEWER'],
  /** Point a connection that holds secrets (a password, a key, an auth header) at another host, database, origin or bucket. */
  'connections:secrets': ['OWNER', 'ADMIN'],
  /** Delete a connection (its schedule, running syncs and, when asked, its tables). */
  'connections:delete': ['OWNER', 'ADMIN'],
  'usage:read': ['OWNER', 'ADMIN', 'MEMBER', 'VIEWER'],
  /** The plan and the subscription's status. */
  'billing:read': ['OWNER', 'ADMIN', 'MEMBER', 'VIEWER'],
  /** Set up the billing provider's customer, open its portal. */
  'billing:manage': ['OWNER', 'ADMIN'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof permissions;

export function allows(role: Role, permission: Permission): boolean {
  return (permissions[permission] as readonly Role[]).includes(role);
}
