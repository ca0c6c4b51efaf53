import type { Transaction } from '../store/store';

/**
 * What other features do when an account changes state; they run inside the account's own
 * transaction. Workspaces bind pending invitations on verification and decide what happens to the
 * workspaces a deleted account owned.
 */
export interface AccountHooks {
  onEmailVerified(tx: Transaction, user: { id: string; email: string }): Promise<void>;
  /** May refuse the deletion by throwing an AppError. `purgeAfter` is when the account's data goes. */
  beforeDeletion(tx: Transaction, userId: string, purgeAfter: string): Promise<void>;
  onPurge(tx: Transaction, userId: string): Promise<void>;
}
