import { createHousekeepingActivities } from '../../activities/housekeeping-activities';
import type { PruneParams } from '../../housekeeping/prune';
import type { NamedQuery } from '../../store/named-query';
import { housekeepingWorkflow } from '../../workflows/housekeeping';
import type { FeatureWiring } from '../feature';
import type { FeatureDeps } from './deps';

/** The hourly sweep of every feature's rows that have done their job. */
export function housekeepingWiring({ infra, clock, logger }: FeatureDeps, pruneQueries: NamedQuery<PruneParams, never>[]) {
  return {
    activities: createHousekeepingActivities({ store: infra.store, clock, pruneQueries, logger: logger.child({ component: 'housekeeping' }) }),
    schedules: [{ scheduleId: 'housekeeping', workflow: housekeepingWorkflow, args: [], every: '1h', labels: { kind: 'housekeeping' } }],
  } satisfies FeatureWiring;
}
