import type { PathName } from '../../router/paths';

/**
 * The rooms of a workspace, in the order the navigation shows them. A new room of a workspace adds
 * its path to router/paths.ts, its route to router/routes.ts and its entry here.
 */
export const workspaceNav: { path: PathName; label: string }[] = [
  { path: 'workbench', label: 'SQL' },
  { path: 'tables', label: 'Tables' },
  { path: 'settings', label: 'Settings' },
];
