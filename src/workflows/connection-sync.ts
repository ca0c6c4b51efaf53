import {
  ActivityCancellationType,
  CancellationScope,
  defineQuery,
  defineSignal,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { ConnectionStreamActivities, ConnectionSyncActivities, StreamReport, SyncPlan } from '../activities/connection-sync-activities';
import type { StreamProgress } from '../connections/stream-sync';
import type { StreamSelection } from '../connectors/connector';
import type { StreamStatus, SyncJobStatus, SyncTrigger } from '../connections/queries';

export interface ConnectionSyncInput {
  workspaceId: string;
  connectionId: string;
  trigger: SyncTrigger;
  /** Set for a manual run (the request recorded the job); a scheduled run records its own. */
  jobId?: string;
}

/** One stream as the status query shows it while the job runs. */
export interface LiveStream extends StreamProgress {
  name: string;
  status: StreamStatus;
  sync_mode: string;
  reason?: string;
  error?: string;
}

export interface ConnectionSyncStatus {
  jobId: string | null;
  status: SyncJobStatus;
  startedAt: string | null;
  streams: LiveStream[];
}

export const connectionSyncStatusQuery = defineQuery<ConnectionSyncStatus>('status');
/** Stops the running streams; the job ends cancelled with what its streams had committed. */
export const connectionSyncCancelSignal = defineSignal('cancel');
/** A stream's activity reports its counts after each batch. */
export const connectionSyncProgressSignal = defineSignal<[{ stream: string; progress: StreamProgress }]>('progress');

const bookkeeping = { startToCloseTimeout: '5 minutes', retry: { initialInterval: '2 seconds', maximumAttempts: 5 } } as const;
/**
 * The job's bookkeeping (its record, the plan, the end) runs in the workflow's own worker: short work
 * on the service's store, which as activities the server would hand out one by one, a round trip each
 * (about 25 ms of every sync). Runs started before this are replayed as they ran (see `patched`).
 */
const localJobs = proxyLocalActivities<ConnectionSyncActivities>(bookkeeping);
const scheduledJobs = proxyActivities<ConnectionSyncActivities>(bookkeeping);

/**
 * One sync job of one connection: its streams, each an activity on the sync task queue (a bound at
 * once), reading and committing batches; then the job's record, the usage, and whoever listens for
 * changed tables. Scheduled runs record their own job first (and skip when one is running).
 */
export async function connectionSyncWorkflow(input: ConnectionSyncInput): Promise<SyncJobStatus | 'skipped'> {
  const state: ConnectionSyncStatus = { jobId: input.jobId ?? null, status: 'pending', startedAt: null, streams: [] };
  let streams: CancellationScope | undefined;
  let cancelRequested = false;
  setHandler(connectionSyncStatusQuery, () => state);
  setHandler(connectionSyncCancelSignal, () => {
    cancelRequested = true;
    streams?.cancel();
  });
  setHandler(connectionSyncProgressSignal, ({ stream, progress }) => {
    const live = state.streams.find((candidate) => candidate.name === stream);
    if (live?.status === 'running') Object.assign(live, progress);
  });

  const jobs = patched('sync-bookkeeping-local') ? localJobs : scheduledJobs;
  const jobId =
    input.jobId ??
    (await jobs.openScheduledSyncJob({ workspaceId: input.workspaceId, connectionId: input.connectionId, workflowId: workflowInfo().workflowId }));
  if (!jobId) return 'skipped';
  state.jobId = jobId;

  let plan: SyncPlan;
  try {
    plan = await jobs.startSyncJob(jobId);
  } catch (error) {
    const outcome = await CancellationScope.nonCancellable(() =>
      jobs.finishSyncJob(jobId, { reports: [], cancelled: isCancellation(error), failure: messageOf(error) }),
    );
    state.status = outcome.status;
    return outcome.status;
  }
  state.status = 'running';
  state.startedAt = plan.startedAt;
  const changeLogStreams = plan.changeLogStreams ?? [];
  state.streams = [
    ...[...plan.streams, ...changeLogStreams].map((stream): LiveStream => ({
      name: stream.name,
      status: 'pending',
      sync_mode: stream.syncMode,
      records_read: 0,
      records_written: 0,
      bytes_read: 0,
    })),
    ...plan.refused.map((stream): LiveStream => ({
      name: stream.name,
      status: 'failed',
      sync_mode: stream.syncMode,
      records_read: 0,
      records_written: 0,
      bytes_read: 0,
      error: stream.error,
    })),
    ...(plan.skipped ?? []).map((stream): LiveStream => ({
      name: stream.name,
      status: 'skipped',
      sync_mode: stream.syncMode,
      records_read: 0,
      records_written: 0,
      bytes_read: 0,
      reason: stream.reason,
    })),
  ];

  const streamActivities = proxyActivities<ConnectionStreamActivities>({
    taskQueue: plan.taskQueue,
    startToCloseTimeout: plan.streamTimeoutMs,
    heartbeatTimeout: '20 seconds',
    retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  });
  const reports: StreamReport[] = [];
  let cancelled = cancelRequested;
  streams = new CancellationScope();
  try {
    // The streams of the change log go together, as one unit of work beside the others: they share one slot.
    const units: (StreamSelection | StreamSelection[])[] = [...plan.streams, ...(changeLogStreams.length ? [changeLogStreams] : [])];
    await streams.run(() =>
      inParallel(units, plan.parallelism, async (unit) => {
        const group = Array.isArray(unit) ? unit : [unit];
        const live = group.map((stream) => state.streams.find((candidate) => candidate.name === stream.name)!);
        for (const entry of live) entry.status = 'running';
        try {
          const done = Array.isArray(unit)
            ? await streamActivities.syncChangeLogStreams({ jobId, connectionId: input.connectionId, streams: unit })
            : [await streamActivities.syncConnectionStream({ jobId, connectionId: input.connectionId, stream: unit })];
          for (const report of done) {
            Object.assign(
              live.find((entry) => entry.name === report.name)!,
              report.progress,
              { status: report.status },
              report.reason ? { reason: report.reason } : {},
            );
            reports.push(report);
          }
        } catch (error) {
          for (const [index, entry] of live.entries()) {
            entry.status = isCancellation(error) ? 'cancelled' : 'failed';
            entry.error = entry.status === 'failed' ? messageOf(error) : undefined;
            const progress = { records_read: entry.records_read, records_written: entry.records_written, bytes_read: entry.bytes_read };
            reports.push({
              name: entry.name,
              sync_mode: group[index]!.syncMode,
              status: entry.status,
              progress,
              error: entry.error,
              error_code: codeOf(error),
            });
          }
          if (isCancellation(error)) throw error;
        }
      }),
    );
  } catch (error) {
    if (!isCancellation(error)) throw error;
    cancelled = true;
  }
  cancelled ||= cancelRequested;
  const outcome = await CancellationScope.nonCancellable(() => jobs.finishSyncJob(jobId, { reports, refused: plan.refused, skipped: plan.skipped, cancelled }));
  state.status = outcome.status;
  if (outcome.changedTables.length > 0) {
    await CancellationScope.nonCancellable(() =>
      jobs.notifySyncListeners({ workspaceId: input.workspaceId, connectionId: input.connectionId, jobId, changedTables: outcome.changedTables }),
    );
  }
  return outcome.status;
}

/** Runs the work over the items, at most `limit` at once, in order. */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

/** What an activity's failure says, through Temporal's wrapping. */
function messageOf(error: unknown): string {
  let current: unknown = error;
  while (current instanceof Error && (current as { cause?: unknown }).cause instanceof Error) current = (current as { cause: unknown }).cause;
  return current instanceof Error ? current.message : String(error);
}

/** The error code an activity's application failure carries as its type. */
function codeOf(error: unknown): string | undefined {
  let current: unknown = error;
  while (current instanceof Error) {
    const type = (current as { type?: unknown }).type;
    if (typeof type === 'string') return type;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
