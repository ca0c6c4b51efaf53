import { namedQuery } from '../../store/named-query';
import type { Role } from '../roles';

export type MemberStatus = 'active' | 'invited';

export interface MemberRow {
  id: string;
  user_id: string | null;
  email: string;
  role: Role;
  status: MemberStatus;
}

// An active member shows the account's current address; an invitation the address it was sent to.
const memberColumns = `m.id, m.user_id, COALESCE(u.email, m.invited_email) AS email, m.role, m.status`;

export const insertMember = namedQuery<{
  id: string;
  workspace_id: string;
  user_id: string | null;
  invited_email: string | null;
  role: Role;
  status: MemberStatus;
  invited_by: string | null;
  now: string;
}>(
  'members.insert',
  `INSERT INTO workspace_members (id, workspace_id, user_id, invited_email, role, status, invited_by, created_at, updated_at)
   VALUES (:id, :workspace_id, :user_id, :invited_email, :role, :status, :invited_by, :now, :now)`,
);

export const listMembers = namedQuery<{ workspace_id: string; limit: number; offset: number }, MemberRow>(
  'members.list',
  `SELECT ${memberColumns} FROM workspace_members m LEFT JOIN users u ON u.id = m.user_id
   WHERE m.workspace_id = :workspace_id ORDER BY m.created_at, m.id LIMIT :limit OFFSET :offset`,
);

export const countMembers = namedQuery<{ workspace_id: string }, { total: number }>(
  'members.count',
  'SELECT count(*) AS total FROM workspace_members WHERE workspace_id = :workspace_id',
);

export const findMember = namedQuery<{ workspace_id: string; id: string }, MemberRow>(
  'members.find',
  `SELECT ${memberColumns} FROM workspace_members m LEFT JOIN users u ON u.id = m.user_id
   WHERE m.workspace_id = :workspace_id AND m.id = :id`,
);

export const findMemberByUser = namedQuery<{ workspace_id: string; user_id: string }, { id: string }>(
  'members.find_by_user',
  'SELECT id FROM workspace_members WHERE workspace_id = :workspace_id AND user_id = :user_id',
);

export const findInvitation = namedQuery<{ workspace_id: string; email: string }, { id: string }>(
  'members.find_invitation',
  'SELECT id FROM workspace_members WHERE workspace_id = :workspace_id AND invited_email = :email',
);

export const setMemberRole = namedQuery<{ workspace_id: string; id: string; role: Role; now: string }>(
  'members.set_role',
  'UPDATE workspace_members SET role = :role, updated_at = :now WHERE workspace_id = :workspace_id AND id = :id',
);

export const deleteMember = namedQuery<{ workspace_id: string; id: string }>(
  'members.delete',
  'DELETE FROM workspace_members WHERE workspace_id = :workspace_id AND id = :id',
);

/** Invitations to an address become memberships of the account that verified it. */
export const bindInvitations = namedQuery<{ email: string; user_id: string; now: string }>(
  'members.bind_invitations',
  `UPDATE workspace_members SET user_id = :user_id, invited_email = NULL, status = 'active', updated_at = :now
   WHERE invited_email = :email AND status = 'invited'
     AND NOT EXISTS (SELECT 1 FROM workspace_members other WHERE other.workspace_id = workspace_members.workspace_id AND other.user_id = :user_id)`,
);

/** Invitations left over because the account was already a member there. */
export const dropBoundDuplicates = namedQuery<{ email: string }>(
  'members.drop_duplicate_invitations',
  `DELETE FROM workspace_members WHERE invited_email = :email AND status = 'invited'`,
);

export const deleteUserMemberships = namedQuery<{ user_id: string }>('members.delete_for_user', 'DELETE FROM workspace_members WHERE user_id = :user_id');
