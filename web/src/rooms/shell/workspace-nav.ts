import type { PathName } from '../../router/paths';

/**
 * The rooms of a workspace, in the order the navigation shows them. A new room of a workspace adds
 * its path to router/paths.ts, its route to router/routes.ts and its entry here.
 */
export const workspaceNav: { path: PathName; label: string }[] = [
  { path: 'workbench', label: 'SQL' },
  { path: 'tables', label: 'Tables' },
  { path: 'workspaceConnections', label: 'Connections' },
  { path: 'transforms', label: 'Transforms' },
  { path: 'savedQueries', label: 'Saved queries' },
  { path: 'charts', label: 'Charts' },
  { path: 'pages', label: 'Pages' },
  { path: 'usage', label: 'Usage' },
  { path: 'billing', label: 'Billing' },
  { path: 'settings', label: 'Settings' },
];
