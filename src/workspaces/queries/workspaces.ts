import { namedQuery } from '../../store/named-query';
import type { Role } from '../roles';

export interface WorkspaceRow {
  id: string;
  name: string;
  slug: string;
  region: string;
  plan_id: string;
  created_at: string;
}

export type WorkspaceWithRoleRow = WorkspaceRow & { role: Role };

const columns = 'w.id, w.name, w.slug, w.region, w.plan_id, w.created_at';

export const insertWorkspace = namedQuery<{ id: string; name: string; slug: string; region: string; plan_id: string; created_by: string; now: string }>(
  'workspaces.insert',
  `INSERT INTO workspaces (id, name, slug, region, plan_id, created_by, created_at, updated_at)
   VALUES (:id, :name, :slug, :region, :plan_id, :created_by, :now, :now)`,
);

export const findLiveWorkspaceBySlug = namedQuery<{ slug: string }, { id: string }>(
  'workspaces.find_live_by_slug',
  'SELECT id FROM workspaces WHERE slug = :slug AND deleted_at IS NULL',
);

/** The caller's live workspaces, oldest membership first (the first one is the default workspace). */
export const listUserWorkspaces = namedQuery<{ user_id: string }, WorkspaceWithRoleRow>(
  'workspaces.list_for_user',
  `SELECT ${columns}, m.role FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
   WHERE m.user_id = :user_id AND m.status = 'active' AND w.deleted_at IS NULL
   ORDER BY m.created_at, m.id`,
);

/** The caller's membership of a live workspace, or nothing: the single gate of every workspace endpoint. */
export const findMembership = namedQuery<{ workspace_id: string; user_id: string }, WorkspaceWithRoleRow & { member_id: string }>(
  'workspaces.find_membership',
  `SELECT ${columns}, m.role, m.id AS member_id FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
   WHERE w.id = :workspace_id AND m.user_id = :user_id AND m.status = 'active' AND w.deleted_at IS NULL`,
);

/**
 * Held by a transaction that marks a workspace deleted, from before it starts the purge until it
 * commits: the purge's check that the workspace is deleted takes it too, so it reads the deletion's
 * outcome, never the row as it was while the deletion was still committing.
 */
export const workspaceDeletionLock = (workspaceId: string) => `workspace-deletion:${workspaceId}`;

export const markWorkspaceDeleted = namedQuery<{ id: string; now: string }>(
  'workspaces.mark_deleted',
  'UPDATE workspaces SET deleted_at = :now, updated_at = :now WHERE id = :id AND deleted_at IS NULL',
);

export const findWorkspaceForPurge = namedQuery<{ id: string }, { id: string; deleted_at: string | null }>(
  'workspaces.find_for_purge',
  'SELECT id, deleted_at FROM workspaces WHERE id = :id',
);

export const deleteWorkspaceMembers = namedQuery<{ workspace_id: string }>(
  'workspaces.delete_members',
  'DELETE FROM workspace_members WHERE workspace_id = :workspace_id',
);
export const deleteWorkspaceRow = namedQuery<{ id: string }>('workspaces.delete', 'DELETE FROM workspaces WHERE id = :id');

/** Workspaces a user owns, with how many other active members each has (account deletion policy). */
export const listOwnedWorkspaces = namedQuery<{ user_id: string }, { id: string; name: string; other_members: number }>(
  'workspaces.list_owned',
  `SELECT w.id, w.name,
          (SELECT count(*) FROM workspace_members o WHERE o.workspace_id = w.id AND o.status = 'active' AND o.user_id <> :user_id) AS other_members
   FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
   WHERE m.user_id = :user_id AND m.role = 'OWNER' AND w.deleted_at IS NULL`,
);
