import type { Profile } from './profile';
import type { AuthContext } from './auth-context';
import { softDeleteUser } from './queries/users';
import { revokeUserApiKeys } from './queries/api-keys';
import { isoAfter } from '../util/clock';

/** Starts the durable wait after which a deleted account's personal data is purged. */
export interface RetentionScheduler {
  schedulePurge(userId: string, purgeAfter: string): Promise<void>;
}

/**
 * Deleting an account is immediate for access (login, access tokens, refresh tokens and API keys stop
 * working at once) and delayed for data: a workflow purges it after the retention period.
 */
export class AccountDeletion {
  constructor(
    private readonly ctx: AuthContext,
    private readonly profile: Profile,
    private readonly retention: RetentionScheduler,
    private readonly retentionMs: number,
  ) {}

  async delete(userId: string, password: string): Promise<void> {
    await this.profile.confirmPassword(userId, password);
    const now = this.ctx.clock.now().toISOString();
    const purgeAfter = isoAfter(this.ctx.clock, this.retentionMs);
    await this.ctx.store.transaction(async (tx) => {
      await this.ctx.hooks.beforeDeletion(tx, userId, purgeAfter);
      // The purge workflow is started before the deletion commits: if Temporal is unreachable nothing
      // is deleted and the caller can retry; if the commit fails, the purge finds a live account and
      // leaves it alone.
      await this.retention.schedulePurge(userId, purgeAfter);
      await tx.run(softDeleteUser, { id: userId, now, purge_after: purgeAfter });
      await tx.run(revokeUserApiKeys, { user_id: userId, now });
      await this.ctx.sessions.closeAll(tx, userId);
    });
  }
}
