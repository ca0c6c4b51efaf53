import type { EngineServices } from '../../engine/engine-services';
import { QueryGate } from '../../query/query-gate';
import { QueryService } from '../../query/query-service';
import { deleteWorkspaceRateEvents, pruneRateLimitEvents, RateLimiter } from '../../query/rate-limiter';
import { deleteWorkspaceUsage, UsageRecorder } from '../../query/usage-recorder';
import type { FeatureWiring } from '../feature';
import type { FeatureDeps } from './deps';

/** The gate every path that runs user SQL goes through (limits, usage records), and the synchronous query endpoints. */
export function queriesFeature({ config, infra, clock, metrics }: FeatureDeps, engine: EngineServices) {
  const gate = new QueryGate(infra.store, engine.queries, new RateLimiter(infra.store, clock), new UsageRecorder(infra.store, clock), config.query, (kind, outcome, bytes) =>
    metrics.query(kind, outcome, bytes),
  );
  const queries = new QueryService(gate);
  const wiring = {
    workspacePurge: { rows: [deleteWorkspaceRateEvents, deleteWorkspaceUsage] },
    prune: [pruneRateLimitEvents],
  } satisfies FeatureWiring;
  return { queries, gate, wiring };
}
