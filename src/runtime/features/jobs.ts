import { createQueryJobActivities, createQueryJobBookkeeping } from '../../activities/query-job-activities';
import type { EngineServices } from '../../engine/engine-services';
import { deleteWorkspaceJobs } from '../../jobs/job-queries';
import { checkJobCapacity } from '../../jobs/job-capacity';
import { JobLedger } from '../../jobs/job-ledger';
import { QueriesAsJobs } from '../../jobs/queries-as-jobs';
import { QueryJobsService } from '../../jobs/query-jobs-service';
import type { QueryGate } from '../../query/query-gate';
import { QueryJobClient } from '../../workflow-clients/query-job';
import { queryJobReconciliationWorkflow } from '../../workflows/job-reconciliation';
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
 * worker slots are the job concurrency (each workspace admitted to at most its plan's share of them),
 * the reconciliation of their records with Temporal every minute, and the hourly removal of expired
 * results.
 */
export function jobsFeature({ config, infra, logger, clock, metrics, engine, access, gate }: JobsFeatureDeps) {
  const log = logger.child({ component: 'jobs' });
  const { store, lake } = infra;
  const client = new QueryJobClient(infra.temporal, `${config.temporal.taskQueue}-query-jobs`, config.jobs.timeoutMs, log);
  const ledger = new JobLedger(store, client, clock, log);
  const jobs = new QueryJobsService(store, access, gate, client, ledger, engine.queries, lake, clock, log);
  const asJobs = new QueriesAsJobs(jobs, client, store, engine.queries, lake, config.query.maxResultRows);
  const queryWorker = {
    taskQueue: client.queryTaskQueue,
    concurrency: config.jobs.concurrency,
    // Heartbeats carry a cancel to the query: sent at most this often, so a cancelled job stops within a second.
    heartbeatThrottleMs: 500,
    checkCapacity: () => checkJobCapacity(store, config.jobs.concurrency, log),
    activities: createQueryJobActivities({
      store,
      lake,
      gate,
      ledger,
      notice: client,
      runEnded: (status) => metrics.runEnded('query_job', status),
      clock,
      timeoutMs: config.jobs.timeoutMs,
      resultRetentionMs: config.jobs.resultRetentionMs,
      logger: log,
    }),
  };
  const wiring = {
    activities: createQueryJobBookkeeping({ store, lake, ledger, clock, logger: log }),
    schedules: [
      { scheduleId: 'job-results-cleanup', workflow: jobResultsCleanupWorkflow, args: [], every: '1h', labels: { kind: 'job_results_cleanup' } },
      { scheduleId: 'query-job-reconciliation', workflow: queryJobReconciliationWorkflow, args: [], every: '1m', labels: { kind: 'job_reconciliation' } },
    ],
    workspacePurge: { rows: [deleteWorkspaceJobs] },
  } satisfies FeatureWiring;
  return { jobs, asJobs, queryWorker, wiring };
}
