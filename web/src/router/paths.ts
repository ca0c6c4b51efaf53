/**
 * Every address of the console. The service answers each with the console's page (its list is
 * src/api/console/index.ts, checked against this one by the tests); links in e-mails use the first
 * group as they are. A room of a workspace lives under /workspaces/:workspaceId.
 */
export const paths = {
  home: '/',
  login: '/login',
  signup: '/signup',
  waitlist: '/waitlist',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  verifyEmail: '/verify-email',
  account: '/account',
  apiKeys: '/account/api-keys',
  workspaces: '/workspaces',
  newWorkspace: '/workspaces/new',
  workbench: '/workspaces/:workspaceId/sql',
  tables: '/workspaces/:workspaceId/tables',
  table: '/workspaces/:workspaceId/tables/:table',
  settings: '/workspaces/:workspaceId/settings',
  billing: '/workspaces/:workspaceId/billing',
  usage: '/workspaces/:workspaceId/usage',
  workspaceConnections: '/workspaces/:workspaceId/connections',
  newConnection: '/workspaces/:workspaceId/connections/new',
  workspaceConnection: '/workspaces/:workspaceId/connections/:connectionId',
  transforms: '/workspaces/:workspaceId/transforms',
  newTransform: '/workspaces/:workspaceId/transforms/new',
  transform: '/workspaces/:workspaceId/transforms/:transformId',
  transformRun: '/workspaces/:workspaceId/transforms/runs/:dagRunId',
  savedQueries: '/workspaces/:workspaceId/saved-queries',
  newSavedQuery: '/workspaces/:workspaceId/saved-queries/new',
  savedQuery: '/workspaces/:workspaceId/saved-queries/:name',
  charts: '/workspaces/:workspaceId/charts',
  newChart: '/workspaces/:workspaceId/charts/new',
  chart: '/workspaces/:workspaceId/charts/:name',
  pages: '/workspaces/:workspaceId/pages',
  newPage: '/workspaces/:workspaceId/pages/new',
  page: '/workspaces/:workspaceId/pages/:name',
  connections: '/connections',
  connection: '/connections/:connectionId',
} as const;

export type PathName = keyof typeof paths;

/** An address from a path pattern and its parameters (each encoded). */
export function pathTo(name: PathName, params: Record<string, string> = {}, query?: Record<string, string>): string {
  const path = paths[name].replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(params[key] ?? ''));
  const search = query ? new URLSearchParams(query).toString() : '';
  return search ? `${path}?${search}` : path;
}

/** The parameters of a pathname that the pattern matches, or undefined. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | undefined {
  if (pattern === '/') return pathname === '/' ? {} : undefined;
  const want = pattern.split('/');
  const have = pathname.replace(/\/+$/, '').split('/');
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const part = want[i]!;
    const value = have[i]!;
    if (part.startsWith(':')) {
      if (!value) return undefined;
      params[part.slice(1)] = decodeURIComponent(value);
    } else if (part !== value) return undefined;
  }
  return params;
}
