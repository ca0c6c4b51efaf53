import { AppError } from '../errors/app-error';
import type { AccountHooks } from '../auth/account-hooks';
import type { Clock } from '../util/clock';
import { bindInvitations, deleteUserMemberships, dropBoundDuplicates } from './queries/members';
import { listOwnedWorkspaces, markWorkspaceDeleted, workspaceDeletionLock } from './queries/workspaces';
import type { WorkspacePurgeScheduler } from './workspaces-service';

/**
 * How workspaces follow their members' accounts:
 * - verifying an address turns the invitations sent to it into memberships;
 * - an account cannot be deleted while it owns a workspace that has other members (ownership must be
 *   handed on first); workspaces it owns alone are deleted with it: access ends now, and their data is
 *   purged when the account's retention period ends;
 * - purging an account removes its remaining memberships.
 */
export function workspaceAccountHooks(purge: WorkspacePurgeScheduler, clock: Clock): AccountHooks {
  return {
    async onEmailVerified(tx, user) {
      await tx.run(bindInvitations, { email: user.email, user_id: user.id, now: clock.now().toISOString() });
      await tx.run(dropBoundDuplicates, { email: user.email });
    },

    async beforeDeletion(tx, userId, purgeAfter) {
      const owned = await tx.all(listOwnedWorkspaces, { user_id: userId });
      const shared = owned.filter((workspace) => workspace.other_members > 0);
      if (shared.length > 0) {
        throw new AppError('CONFLICT', `You own workspaces that have other members: ${shared.map((w) => w.name).join(', ')}`, {
          hint: 'Hand ownership to another member (PATCH …/members/{member_id} with role OWNER) or delete those workspaces first.',
        });
      }
      for (const workspace of owned) {
        await tx.lock(workspaceDeletionLock(workspace.id));
        await purge.schedulePurge(workspace.id, purgeAfter);
        await tx.run(markWorkspaceDeleted, { id: workspace.id, now: clock.now().toISOString() });
      }
    },

    async onPurge(tx, userId) {
      await tx.run(deleteUserMemberships, { user_id: userId });
    },
  };
}
