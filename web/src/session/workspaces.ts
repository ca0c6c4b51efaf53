import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { Store, useStore } from '../ui/store';
import { useEffect } from 'preact/hooks';

export type Workspace = components['schemas']['WorkspaceWithRoleResponse'];
export type Role = Workspace['role'];

/** The signed-in person's workspaces, loaded once and again after a change. */
export const workspaces = new Store<{ list: Workspace[]; loaded: boolean; error?: unknown }>({ list: [], loaded: false });

const lastKey = 'oxbow.console.workspace';

export async function reloadWorkspaces(): Promise<Workspace[]> {
  try {
    const list = await unwrap(api.GET('/api/v1/workspaces'));
    workspaces.set({ list, loaded: true });
    return list;
  } catch (error) {
    workspaces.set({ list: workspaces.get().list, loaded: true, error });
    throw error;
  }
}

export function useWorkspaces() {
  const state = useStore(workspaces);
  useEffect(() => {
    if (!state.loaded) void reloadWorkspaces().catch(() => undefined);
  }, [state.loaded]);
  return state;
}

/** The workspace opened last in this browser (an id, nothing secret), to open first next time. */
export function rememberWorkspace(id: string): void {
  localStorage.setItem(lastKey, id);
}

export function lastWorkspace(list: Workspace[]): Workspace | undefined {
  const id = localStorage.getItem(lastKey);
  return list.find((workspace) => workspace.id === id) ?? list[0];
}

const ranks: Record<Role, number> = { VIEWER: 0, MEMBER: 1, ADMIN: 2, OWNER: 3 };

/** Whether a role reaches another (the console hides what the service would refuse anyway). */
export const atLeast = (role: Role | undefined, wanted: Role) => role !== undefined && ranks[role] >= ranks[wanted];
