import { ActivityFailure, CancelledFailure, defineQuery, defineSignal, isCancellation, proxyActivities, setHandler } from '@temporalio/workflow';
import type { QueryJobActivities, QueryJobBookkeeping } from '../activities/query-job-activities';
import type { JobStatus } from '../jobs/job-queries';

export interface QueryJobInput {
  jobId: string;
  workspaceId: string;
  /** 1 to 10; 10 runs first. */
  priority: number;
  timeoutMs: number;
  /** The task queue of the query activities, whose worker slots bound how many run at once. */
  queryTaskQueue: string;
}

export interface QueryJobLiveStatus {
  status: JobStatus;
  startedAt: string | null;
}

export const queryJobStatusQuery = defineQuery<QueryJobLiveStatus>('status');
export const queryJobStartedSignal = defineSignal<[{ startedAt: string }]>('started');

/** Temporal's priority keys run the smallest first; the API's priorities run the largest first. */
export function priorityKeyOf(priority: number): number {
  return 11 - priority;
}

/**
 * One asynchronous query. Pending until a query slot picks it up (higher priorities first), running
 * while the query writes its result, then succeeded, failed or cancelled. A cancel of a job that has
 * not started removes its queued activity, so it never runs.
 */
export async function queryJobWorkflow(input: QueryJobInput): Promise<JobStatus> {
  const state: QueryJobLiveStatus = { status: 'pending', startedAt: null };
  setHandler(queryJobStatusQuery, () => state);
  setHandler(queryJobStartedSignal, ({ startedAt }) => {
    if (state.status === 'pending') Object.assign(state, { status: 'running', startedAt });
  });

  const { runQueryJob } = proxyActivities<QueryJobActivities>({
    taskQueue: input.queryTaskQueue,
    // The query's own timeout ends it first; this only bounds an attempt that stopped reporting.
    startToCloseTimeout: input.timeoutMs + 120_000,
    heartbeatTimeout: '15 seconds',
    retry: { initialInterval: '2 seconds', maximumAttempts: 5 },
    priority: { priorityKey: priorityKeyOf(input.priority), fairnessKey: input.workspaceId },
  });
  const { failQueryJob } = proxyActivities<QueryJobBookkeeping>({ startToCloseTimeout: '1 minute', retry: { maximumAttempts: 10 } });

  try {
    state.status = await runQueryJob(input.jobId);
  } catch (error) {
    if (isCancellation(error) || (error instanceof ActivityFailure && error.cause instanceof CancelledFailure)) {
      state.status = 'cancelled';
      return state.status;
    }
    // Every attempt failed for reasons outside the query (the query's own errors end the activity
    // normally): the job records why.
    await failQueryJob(input.jobId, error instanceof Error ? error.message : String(error));
    state.status = 'failed';
  }
  return state.status;
}
