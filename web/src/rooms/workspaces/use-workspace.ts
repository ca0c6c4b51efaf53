import { useWorkspaces, type Workspace } from '../../session/workspaces';

/** The workspace of a room's address, from the signed-in person's list (undefined while it loads or when not a member). */
export function useWorkspace(workspaceId: string | undefined): { workspace: Workspace | undefined; loaded: boolean } {
  const { list, loaded } = useWorkspaces();
  return { workspace: list.find((workspace) => workspace.id === workspaceId), loaded };
}
