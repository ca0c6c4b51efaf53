import type { EngineServices } from '../../engine/engine-services';
import { QueryService } from '../../query/query-service';
import { deleteWorkspaceRateEvents, pruneRateLimitEvents, RateLimiter } from '../../query/rate-limiter';
import { deleteWorkspaceUsage, UsageRecorder } from '../../query/usage-recorder';
import type { FeatureWiring } from '../feature';
import type { FeatureDeps } from './deps';

/** Synchronous queries with their guardrails: rate limits, usage records. */
export function queriesFeature({ config, infra, clock }: FeatureDeps, engine: EngineServices) {
  const limiter = new RateLimiter(infra.store, clock);
  const usage = new UsageRecorder(infra.store, clock);
  const queries = new QueryService(infra.store, engine.queries, limiter, usage, config.query);
  const wiring = {
    workspacePurge: { rows: [deleteWorkspaceRateEvents, deleteWorkspaceUsage] },
    prune: [pruneRateLimitEvents],
  } satisfies FeatureWiring;
  return { queries, limiter, usage, wiring };
}
