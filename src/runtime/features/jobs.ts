import { createQueryJobActivities, createQueryJobBookkeeping } from '../../activities/query-job-activities';
import type { EngineServices } from '../../engine/engine-services';
import { deleteWorkspaceJobs } from '../../jobs/job-queries';
import { QueryJobsService } from '../../jobs/query-jobs-service';
import type { QueryGate } from '../../query/query-gate';
import { QueryJobClient } from '../../workflow-clients/query-job';
import { jobResultsCleanupWorkflow } from '../../workflows/job-results-cleanup';
import type { WorkspaceAccess } from '../../workspaces/workspace-access';
import type { FeatureWiring } from '../feature';
import type { FeatureDeps } from './deps';

export interface JobsFeatureDeps extends FeatureDeps {
  engine: EngineServices;
  access: WorkspaceAccess;
  gate: QueryGate;
}

/**
 * Query jobs: their workflows on the main task queue, their queries on a task queue of their own whose
 * worker slots are the job concurrency, and the hourly removal of expired results.
 */
export function jobsFeature({ config, infra, logger, clock, metrics, engine, access, gate }: JobsFeatureDeps) {
  const log = logger.child({ component: 'jobs' });
  const { store, lake } = infra;
  const client = new QueryJobClient(infra.temporal, `${config.temporal.taskQueue}-query-jobs`, config.jobs.timeoutMs, log);
  const jobs = new QueryJobsService(store, access, gate, client, engine.queries, lake, clock, log);
  const queryWorker = {
    taskQueue: client.queryTaskQueue,
    concurrency: config.jobs.concurrency,
    activities: createQueryJobActivities({
      store,
      lake,
      gate,
      notice: client,
      runEnded: (status) => metrics.runEnded('query_job', status),
      clock,
      timeoutMs: config.jobs.timeoutMs,
      resultRetentionMs: config.jobs.resultRetentionMs,
      logger: log,
    }),
  };
  const wiring = {
    activities: createQueryJobBookkeeping({ store, lake, clock, logger: log }),
    schedules: [{ scheduleId: 'job-results-cleanup', workflow: jobResultsCleanupWorkflow, args: [], every: '1h', labels: { kind: 'job_results_cleanup' } }],
    workspacePurge: { rows: [deleteWorkspaceJobs] },
  } satisfies FeatureWiring;
  return { jobs, queryWorker, wiring };
}
