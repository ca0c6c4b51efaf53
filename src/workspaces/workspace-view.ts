import type { Role } from './roles';
import type { WorkspaceRow } from './queries/workspaces';

export interface WorkspaceView {
  id: string;
  name: string;
  slug: string;
  region: string;
  plan: string;
  created_at: string;
}

export type WorkspaceWithRole = WorkspaceView & { role: Role };

export function workspaceView(row: WorkspaceRow): WorkspaceView {
  return { id: row.id, name: row.name, slug: row.slug, region: row.region, plan: row.plan_id, created_at: row.created_at };
}

/** The caller's standing in one live workspace, established by WorkspaceAccess. */
export interface Membership {
  workspace: WorkspaceView;
  workspaceId: string;
  userId: string;
  memberId: string;
  role: Role;
}
