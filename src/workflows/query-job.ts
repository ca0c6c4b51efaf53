import {
  ActivityCancellationType,
  ApplicationFailure,
  CancellationScope,
  condition,
  defineQuery,
  defineSignal,
  isCancellation,
  patched,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { JobOutcome, QueryJobActivities, QueryJobBookkeeping } from '../activities/query-job-activities';
import type { JobStatus } from '../jobs/job-queries';
import { searchAttributes } from '../temporal/search-attributes';
import { legacyQueryJob } from './query-job-legacy';

export interface QueryJobInput {
  jobId: string;
  workspaceId: string;
  /** 1 to 10; 10 runs first. */
  priority: number;
  timeoutMs: number;
  /** The task queue of the query activities, whose worker slots bound how many run at once. */
  queryTaskQueue: string;
  /** The job held one of its workspace's running slots when it was submitted; otherwise it waits to be admitted. */
  admitted?: boolean;
}

export interface QueryJobLiveStatus {
  status: JobStatus;
  startedAt: string | null;
  /** Holds one of its workspace's running slots: its query is on the task queue. */
  admitted: boolean;
}

export const queryJobStatusQuery = defineQuery<QueryJobLiveStatus>('status');
export const queryJobStartedSignal = defineSignal<[{ startedAt: string }]>('started');
/** The job's workspace gave it a running slot (see JobSlots). */
export const queryJobAdmittedSignal = defineSignal('admitted');

/** Temporal's priority keys run the smallest first; the API's priorities run the largest first. */
export function priorityKeyOf(priority: number): number {
  return 11 - priority;
}

/** A waiting job looks at its record this often, in case the signal that admitted it was lost. */
const admissionRecheck = '1 minute';

const bookkeeping = proxyActivities<QueryJobBookkeeping>({ startToCloseTimeout: '1 minute', retry: { maximumAttempts: 10 } });

/**
 * One asynchronous query. Pending until its workspace has a free running slot (its plan's share of
 * the job capacity; higher priorities first within the workspace), then queued for a query slot of
 * the workers and running while the query writes its result; then succeeded, failed (the workflow
 * fails, its failure's type the error code) or cancelled (the workflow is cancelled). `OxbowStatus`
 * follows the job's status. A cancel interrupts a running query, which records what it ran.
 */
export async function queryJobWorkflow(input: QueryJobInput): Promise<JobStatus> {
  const fairShare = patched('job-fair-share');
  const state: QueryJobLiveStatus = { status: 'pending', startedAt: null, admitted: !fairShare || (input.admitted ?? false) };
  setHandler(queryJobStatusQuery, () => state);
  setHandler(queryJobAdmittedSignal, () => void (state.admitted = true));
  setHandler(queryJobStartedSignal, ({ startedAt }) => {
    if (state.status !== 'pending') return;
    Object.assign(state, { status: 'running', startedAt });
    if (fairShare) upsertSearchAttributes([{ key: searchAttributes.status, value: 'running' }]);
  });
  if (!fairShare) return legacyQueryJob(input, state, priorityKeyOf(input.priority));

  const { runQueryJob } = proxyActivities<QueryJobActivities>({
    taskQueue: input.queryTaskQueue,
    // The query's own timeout ends it first; this only bounds an attempt that stopped reporting.
    startToCloseTimeout: input.timeoutMs + 120_000,
    heartbeatTimeout: '15 seconds',
    retry: { initialInterval: '2 seconds', maximumAttempts: 5 },
    // A cancelled query records what it ran before the workflow ends.
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    priority: { priorityKey: priorityKeyOf(input.priority), fairnessKey: input.workspaceId },
  });

  try {
    while (!state.admitted) {
      const admitted = await bookkeeping.admitQueryJob(input.jobId);
      // A signal that came while the activity ran stands: the activity may have read the record
      // before the admission it tells of.
      state.admitted = patched('job-admission-signal-kept') ? state.admitted || admitted : admitted;
      if (!state.admitted) await condition(() => state.admitted, admissionRecheck);
    }
    return ended(state, await runQueryJob(input.jobId));
  } catch (error) {
    if (isCancellation(error) || CancellationScope.current().consideredCancelled) {
      await CancellationScope.nonCancellable(() => bookkeeping.endQueryJob(input.jobId, { status: 'cancelled' }));
      setStatus(state, 'cancelled');
      throw error;
    }
    if (error instanceof ApplicationFailure && error.nonRetryable) throw error;
    // Every attempt failed for reasons outside the query (the query's own errors end the activity
    // normally): the job records why.
    const reason = error instanceof Error ? error.message : String(error);
    await bookkeeping.endQueryJob(input.jobId, { status: 'failed', code: 'INTERNAL_ERROR', message: 'The job could not be run', hint: reason.slice(0, 300) });
    setStatus(state, 'failed');
    throw ApplicationFailure.create({ type: 'INTERNAL_ERROR', message: `The job could not be run: ${reason}`, nonRetryable: true });
  }
}

/** How the query ended, as its record says: a failed job fails the workflow with its error code, for operators to find. */
function ended(state: QueryJobLiveStatus, outcome: JobOutcome): JobStatus {
  setStatus(state, outcome.status);
  if (outcome.status === 'failed') {
    throw ApplicationFailure.create({
      type: outcome.error?.code ?? 'INTERNAL_ERROR',
      message: outcome.error?.message ?? 'The query failed',
      nonRetryable: true,
    });
  }
  return outcome.status;
}

function setStatus(state: QueryJobLiveStatus, status: JobStatus): void {
  state.status = status;
  upsertSearchAttributes([{ key: searchAttributes.status, value: status }]);
}
