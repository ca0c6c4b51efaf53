import type { EngineServices } from '../../engine/engine-services';
import { QueryGate } from '../../query/query-gate';
import { QueryService } from '../../query/query-service';
import { deleteWorkspaceRateEvents, pruneRateLimitEvents, RateLimiter } from '../../query/rate-limiter';
import { deleteWorkspaceUsage, UsageRecorder } from '../../query/usage-recorder';
import { UsageBatches } from '../../query/usage-batches';
import { deleteWorkspaceHistory, pruneHistory } from '../../query/history/history-queries';
import { QueryHistory } from '../../query/history/query-history';
import type { FeatureWiring } from '../feature';
import type { FeatureDeps } from './deps';

/** The gate every path that runs user SQL goes through (limits, usage records, history), the synchronous query endpoints and the query history. */
export function queriesFeature({ config, infra, clock, metrics, logger }: FeatureDeps, engine: EngineServices) {
  const recorder = new UsageRecorder(infra.store, clock);
  const answered = new UsageBatches(infra.store, recorder, clock, logger.child({ component: 'usage' }));
  const gate = new QueryGate(
    infra.store,
    engine.queries,
    engine.materializer,
    new RateLimiter(infra.store, clock),
    recorder,
    answered,
    config.query,
    (kind, outcome, bytes) => metrics.query(kind, outcome, bytes),
  );
  const queries = new QueryService(gate);
  const history = new QueryHistory(infra.store, () => answered.written());
  const wiring = {
    workspacePurge: { rows: [deleteWorkspaceRateEvents, deleteWorkspaceUsage, deleteWorkspaceHistory] },
    prune: [pruneRateLimitEvents, pruneHistory],
  } satisfies FeatureWiring;
  return { queries, gate, history, usageRecorded: () => answered.written(), wiring };
}
