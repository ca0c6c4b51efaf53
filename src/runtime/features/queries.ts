import type { EngineServices } from '../../engine/engine-services';
import { QueryGate } from '../../query/query-gate';
import { QueryService } from '../../query/query-service';
import { deleteWorkspaceRateEvents, pruneRateLimitEvents, RateLimiter } from '../../query/rate-limiter';
import { deleteWorkspaceUsage, UsageRecorder } from '../../query/usage-recorder';
import { UsageBatches } from '../../query/usage-batches';
import type { FeatureWiring } from '../feature';
import type { FeatureDeps } from './deps';

/** The gate every path that runs user SQL goes through (limits, usage records), and the synchronous query endpoints. */
export function queriesFeature({ config, infra, clock, metrics, logger }: FeatureDeps, engine: EngineServices) {
  const recorder = new UsageRecorder(infra.store, clock);
  const answered = new UsageBatches(infra.store, recorder, clock, logger.child({ component: 'usage' }));
  const gate = new QueryGate(infra.store, engine.queries, new RateLimiter(infra.store, clock), recorder, answered, config.query, (kind, outcome, bytes) =>
    metrics.query(kind, outcome, bytes),
  );
  const queries = new QueryService(gate);
  const wiring = {
    workspacePurge: { rows: [deleteWorkspaceRateEvents, deleteWorkspaceUsage] },
    prune: [pruneRateLimitEvents],
  } satisfies FeatureWiring;
  return { queries, gate, usageRecorded: () => answered.written(), wiring };
}
