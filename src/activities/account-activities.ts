import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { Logger } from '../logging/logger';
import type { AccountHooks } from '../auth/account-hooks';
import { purgeDeletedAccount, type PurgeResult } from '../auth/account-purge';

export interface AccountActivityDeps {
  store: Store;
  clock: Clock;
  hooks: AccountHooks;
  logger: Logger;
}

export function createAccountActivities(deps: AccountActivityDeps) {
  return {
    async purgeDeletedAccount(userId: string): Promise<PurgeResult> {
      const result = await purgeDeletedAccount(deps.store, deps.clock, deps.hooks, userId);
      deps.logger.info('account retention ended', { user_id: userId, outcome: result.outcome });
      return result;
    },
  };
}

export type AccountActivities = ReturnType<typeof createAccountActivities>;
