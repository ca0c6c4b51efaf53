import type { Logger } from '../logging/logger';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import { pruneGraceMs, pruneQueries } from '../housekeeping/prune-queries';

export function createHousekeepingActivities(deps: { store: Store; clock: Clock; logger: Logger }) {
  return {
    async pruneEndedRecords(): Promise<Record<string, number>> {
      const now = deps.clock.now();
      const cutoff = new Date(now.getTime() - pruneGraceMs);
      const params = { now: now.toISOString(), cutoff: cutoff.toISOString(), cutoff_ms: cutoff.getTime() };
      const removed: Record<string, number> = {};
      for (const query of pruneQueries) removed[query.name] = await deps.store.run(query, params);
      deps.logger.info('housekeeping done', { removed });
      return removed;
    },
  };
}

export type HousekeepingActivities = ReturnType<typeof createHousekeepingActivities>;
