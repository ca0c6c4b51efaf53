import type { Logger } from '../logging/logger';
import type { NamedQuery } from '../store/named-query';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import { pruneGraceMs, type PruneParams } from '../housekeeping/prune';

export interface HousekeepingActivityDeps {
  store: Store;
  clock: Clock;
  /** Every feature's queries that remove its rows that have done their job. */
  pruneQueries: NamedQuery<PruneParams, never>[];
  logger: Logger;
}

export function createHousekeepingActivities(deps: HousekeepingActivityDeps) {
  return {
    async pruneEndedRecords(): Promise<Record<string, number>> {
      const now = deps.clock.now();
      const cutoff = new Date(now.getTime() - pruneGraceMs);
      const params = { now: now.toISOString(), now_ms: now.getTime(), cutoff: cutoff.toISOString(), cutoff_ms: cutoff.getTime() };
      const removed: Record<string, number> = {};
      for (const query of deps.pruneQueries) removed[query.name] = await deps.store.run(query, params);
      deps.logger.info('housekeeping done', { removed });
      return removed;
    },
  };
}

export type HousekeepingActivities = ReturnType<typeof createHousekeepingActivities>;
