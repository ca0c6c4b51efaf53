import { Elysia } from 'elysia';
import type { Authenticator, Caller } from '../../auth/authenticator';
import { requestMeta } from './request-context';
import type { Permission } from '../../workspaces/roles';
import type { WorkspaceAccess } from '../../workspaces/workspace-access';
import type { Membership } from '../../workspaces/workspace-view';
import { authenticate, securityOf, type AuthKind } from './authentication';
import type { OwnerRouting } from './owner-routing';

/**
 * Where a route names its workspace. `path`: the `workspace_id` path parameter, an id. `query` and
 * `body`: the named field, an id or a slug, optional: the caller's first workspace when absent.
 */
export type WorkspaceSource = { in: 'path' } | { in: 'query' | 'body'; field: string };

export interface WorkspaceRequirement {
  permission: Permission;
  from?: WorkspaceSource;
  /** Who may call: an access token (the default), an API key, or either. */
  auth?: AuthKind;
  /**
   * The route runs engine work for the workspace (its queries, its tables, its instance): among API
   * replicas it is served by the workspace's owner, to which any other replica forwards it.
   */
  engine?: boolean;
}

interface RequestParts {
  params: unknown;
  query: unknown;
  body: unknown;
}

/**
 * `{ workspace: '<permission>' }` or `{ workspace: { permission, from, auth } }`: the one way a route
 * learns whose data it serves. Authenticates the caller, reads the workspace from where the route
 * names it, and resolves `caller` and `membership`, or answers 401 or 403 (not a member, or a role
 * without the permission; a workspace that does not exist is answered like one of others). The
 * request's log lines carry the workspace from then on.
 */
export function workspaceAccess(authenticator: Authenticator, access: WorkspaceAccess, routing?: OwnerRouting) {
  const membershipOf = (caller: Caller, permission: Permission, from: WorkspaceSource, request: RequestParts): Promise<Membership> => {
    if (from.in === 'path') return access.authorize(caller.userId, (request.params as Record<string, string | undefined>).workspace_id ?? '', permission);
    const source = (from.in === 'query' ? request.query : request.body) as Record<string, unknown> | null | undefined;
    const named = source?.[from.field];
    return access.resolve(caller.userId, typeof named === 'string' ? named : undefined, permission);
  };
  return new Elysia({ name: 'workspace-access' }).macro({
    workspace: (requirement: Permission | WorkspaceRequirement) => {
      const { permission, from = { in: 'path' }, auth = 'user', engine = false } = typeof requirement === 'string' ? { permission: requirement } : requirement;
      return {
        detail: { security: securityOf[auth] },
        async resolve({ request, params, query, body }): Promise<{ caller: Caller; membership: Membership }> {
          // Forwarded by the replica that checked both already.
          const forwarded = routing?.trusted(request);
          const established = forwarded?.caller && forwarded.membership ? (forwarded as { caller: Caller; membership: Membership }) : undefined;
          const caller = established?.caller ?? (await authenticate(authenticator, auth, request.headers));
          const membership = established?.membership ?? (await membershipOf(caller, permission, from, { params, query, body }));
          requestMeta(request).log.workspace_id = membership.workspaceId;
          return { caller, membership };
        },
        // After resolve: runs here, or answers with what the workspace's owner answered.
        async beforeHandle(context: { request: Request; set: { status?: number | string } }) {
          if (!engine || !routing) return;
          const { caller, membership } = context as typeof context & { caller: Caller; membership: Membership };
          const answer = await routing.route(context.request, membership.workspaceId, { caller, membership });
          if (!answer) return;
          context.set.status = answer.status;
          return answer;
        },
      };
    },
  });
}
