import { ActivityFailure, CancelledFailure, isCancellation, proxyActivities } from '@temporalio/workflow';
import type { JobOutcome, QueryJobActivities, QueryJobBookkeeping } from '../activities/query-job-activities';
import type { JobStatus } from '../jobs/job-queries';

/** What the job's workflow hands over: its input and the state its `status` query answers from. */
interface LegacyJob {
  jobId: string;
  workspaceId: string;
  timeoutMs: number;
  queryTaskQueue: string;
}

/**
 * A job whose workflow started before the fair share (no admission, no OxbowStatus, a cancel closing
 * it completed), replayed as it ran: its query was on the task queue already, and its record counts as
 * holding a slot (migration 0012).
 */
export async function legacyQueryJob(input: LegacyJob, state: { status: JobStatus }, priorityKey: number): Promise<JobStatus> {
  const { runQueryJob } = proxyActivities<QueryJobActivities>({
    taskQueue: input.queryTaskQueue,
    startToCloseTimeout: input.timeoutMs + 120_000,
    heartbeatTimeout: '15 seconds',
    retry: { initialInterval: '2 seconds', maximumAttempts: 5 },
    priority: { priorityKey, fairnessKey: input.workspaceId },
  });
  const { failQueryJob } = proxyActivities<QueryJobBookkeeping>({ startToCloseTimeout: '1 minute', retry: { maximumAttempts: 10 } });
  try {
    // Its activity answered with the status alone then; now with the outcome.
    const outcome: JobOutcome | JobStatus = await runQueryJob(input.jobId);
    state.status = typeof outcome === 'string' ? outcome : outcome.status;
  } catch (error) {
    if (isCancellation(error) || (error instanceof ActivityFailure && error.cause instanceof CancelledFailure)) {
      state.status = 'cancelled';
      return state.status;
    }
    await failQueryJob(input.jobId, error instanceof Error ? error.message : String(error));
    state.status = 'failed';
  }
  return state.status;
}
