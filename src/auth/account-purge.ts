import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { AccountHooks } from './account-hooks';
import { deleteUserApiKeys } from './queries/api-keys';
import { deleteUserEmailTokens } from './queries/email-tokens';
import { clearLoginFailures } from './queries/login-failures';
import { deleteUserRefreshTokens } from './queries/refresh-tokens';
import { deleteUserSessionCodes } from './queries/session-codes';
import { findUserById, purgeUser } from './queries/users';
import { deleteUserOutboxMail } from '../mail/outbox-queries';

export type PurgeResult =
  | { outcome: 'purged' | 'already_purged' | 'not_deleted' }
  /** Deleted again after a failed first attempt: the new deadline is later than the one waited for. */
  | { outcome: 'not_due'; purgeAfter: string };

/**
 * Removes a deleted account's personal data: credentials, links, mail, throttling records, then the
 * profile fields themselves. The row stays as an anonymous tombstone so that ids in usage records and
 * audit trails still resolve.
 */
export async function purgeDeletedAccount(store: Store, clock: Clock, hooks: AccountHooks, userId: string): Promise<PurgeResult> {
  return store.transaction(async (tx) => {
    const user = await tx.first(findUserById, { id: userId });
    if (!user || !user.deleted_at) return { outcome: 'not_deleted' };
    if (user.purged_at) return { outcome: 'already_purged' };
    const now = clock.now().toISOString();
    if (user.purge_after && user.purge_after > now) return { outcome: 'not_due', purgeAfter: user.purge_after };

    await hooks.onPurge(tx, userId);
    await tx.run(deleteUserRefreshTokens, { user_id: userId });
    await tx.run(deleteUserApiKeys, { user_id: userId });
    await tx.run(deleteUserEmailTokens, { user_id: userId });
    await tx.run(deleteUserSessionCodes, { user_id: userId });
    await tx.run(deleteUserOutboxMail, { user_id: userId });
    await tx.run(clearLoginFailures, { scope: `account:${user.email}` });
    await tx.run(purgeUser, { id: userId, now, tombstone_email: `purged-${userId}@deleted.invalid` });
    return { outcome: 'purged' };
  });
}
