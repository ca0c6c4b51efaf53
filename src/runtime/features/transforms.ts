import { createTransformActivities, type TransformActivityDeps } from '../../activities/transform-activities';
import type { EngineServices } from '../../engine/engine-services';
import type { QueryGate } from '../../query/query-gate';
import { TransformsAfterSync } from '../../transforms/after-sync';
import { DagRunPlanner } from '../../transforms/dag-run-planner';
import { DagScheduleService } from '../../transforms/dag-schedule';
import { Staleness } from '../../transforms/staleness';
import {
  deleteWorkspaceDagRuns,
  deleteWorkspaceTransformRuns,
  deleteWorkspaceTransforms,
  pruneEmptyDagRuns,
  pruneOrphanTransformRuns,
  deleteSchedule as deleteWorkspaceSchedule,
  listRunningDagRuns,
} from '../../transforms/transform-queries';
import { TransformRunsService } from '../../transforms/transform-runs-service';
import { TransformsService } from '../../transforms/transforms-service';
import { TransformDagClient, TransformScheduleClient } from '../../workflow-clients/transform-dag';
import type { FeatureWiring } from '../feature';
import type { FeatureDeps } from './deps';

/**
 * Transforms: their definitions and graph, their runs as DAG workflows (one activity per node, on the
 * main task queue), the optional per-workspace schedule, and the listener that runs them after a sync.
 */
export function transformsFeature(
  { config, infra, logger, clock, metrics }: FeatureDeps,
  engine: EngineServices,
  gate: QueryGate,
  storage: TransformActivityDeps['storage'],
  maintenance: TransformActivityDeps['maintenance'],
) {
  const log = logger.child({ component: 'transforms' });
  const { store } = infra;
  const limits = { maxParallel: config.transforms.maxParallel, timeoutMs: config.transforms.timeoutMs };
  const workflows = new TransformDagClient(infra.temporal, limits, log);
  const schedules = new TransformScheduleClient(infra.temporal, limits);
  const staleness = new Staleness(engine.engines, store);
  const planner = new DagRunPlanner(store, staleness, clock);
  const transforms = new TransformsService(store, gate, staleness, clock);
  const runs = new TransformRunsService(store, planner, workflows, clock, config.transforms.runWaitMs, log);
  const schedule = new DagScheduleService(store, schedules, clock);
  const afterSync = new TransformsAfterSync(store, workflows, log);
  const wiring = {
    activities: createTransformActivities({
      store,
      planner,
      gate,
      storage,
      maintenance,
      runEnded: (status) => metrics.runEnded('transform_run', status),
      clock,
      logger: log,
    }),
    workspacePurge: {
      // The schedule goes, and the runs under way are cancelled: nothing writes into a catalog being dropped.
      stopDurableWork: async (workspaceId: string) => {
        await schedules.remove(workspaceId);
        for (const { id } of await store.all(listRunningDagRuns, { workspace_id: workspaceId })) {
          await workflows.cancel(id).catch((error: unknown) => log.debug('a DAG run of a purged workspace was not running', { dag_run_id: id, error }));
        }
      },
      rows: [deleteWorkspaceTransformRuns, deleteWorkspaceDagRuns, deleteWorkspaceTransforms, deleteWorkspaceSchedule],
    },
    prune: [pruneOrphanTransformRuns, pruneEmptyDagRuns],
  } satisfies FeatureWiring;
  return { transforms, runs, schedule, afterSync, wiring };
}
