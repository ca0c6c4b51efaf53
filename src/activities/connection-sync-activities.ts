import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Logger } from '../logging/logger';
import type { StreamSelection } from '../connectors/connector';
import { SourceError } from '../connectors/source-error';
import { AppError } from '../errors/app-error';
import { scrubServerDetails } from '../engine/sql/map-duckdb-error';
import { findConnectionById, findSyncJob } from '../connections/queries';
import type { RefusedStream } from '../connections/stream-plan';
import { progressOf, syncStream, type StreamProgress, type StreamSyncDeps } from '../connections/stream-sync';
import { ConnectionGone, type JobEnd, type StreamReport, type SyncJobLifecycle } from '../connections/sync-job-lifecycle';
import type { SyncCompleted, SyncListener } from '../connections/sync-listeners';
import type { SyncProgressNotice } from '../connections/sync-workflows';
import { zeroTotals } from '../connections/sync-commit';

export type { StreamReport } from '../connections/sync-job-lifecycle';

/** What a job runs: its streams, on which task queue, how many at once, for how long at most. */
export interface SyncPlan {
  streams: StreamSelection[];
  refused: RefusedStream[];
  taskQueue: string;
  parallelism: number;
  streamTimeoutMs: number;
  startedAt: string;
}

export interface SyncActivityDeps {
  lifecycle: SyncJobLifecycle;
  listeners: readonly SyncListener[];
  /** Where a workspace's streams run: its shard of the streams' task queue. */
  streamTaskQueue: (workspaceId: string) => string;
  parallelism: number;
  streamTimeoutMs: number;
  /** Counts each job's end by its status. */
  runEnded(status: string): void;
  logger: Logger;
}

/** The job's bookkeeping, on the main task queue. */
export function createConnectionSyncActivities(deps: SyncActivityDeps) {
  return {
    openScheduledSyncJob(input: { workspaceId: string; connectionId: string; workflowId: string }): Promise<string | null> {
      return deps.lifecycle.openScheduled(input);
    },

    async startSyncJob(jobId: string): Promise<SyncPlan> {
      try {
        const { job, streams, refused } = await deps.lifecycle.start(jobId);
        return { streams, refused, taskQueue: deps.streamTaskQueue(job.workspace_id), parallelism: deps.parallelism, streamTimeoutMs: deps.streamTimeoutMs, startedAt: job.started_at ?? new Date().toISOString() };
      } catch (error) {
        throw failureOf(error);
      }
    },

    async finishSyncJob(jobId: string, end: JobEnd): Promise<{ status: Awaited<ReturnType<SyncJobLifecycle['finish']>>['status']; changedTables: string[] }> {
      const finished = await deps.lifecycle.finish(jobId, end);
      deps.runEnded(finished.status);
      return finished;
    },

    /** The run-after-sync hook: every listener hears of a job that changed tables. */
    async notifySyncListeners(event: SyncCompleted): Promise<void> {
      for (const listener of deps.listeners) await listener.afterSync(event);
    },
  };
}

export interface StreamActivityDeps extends StreamSyncDeps {
  lifecycle: SyncJobLifecycle;
  /** The plan's storage limit, asked before a stream writes (403 STORAGE_LIMIT_REACHED fails it for good). */
  storage: { assertRoom(workspaceId: string, lane: 'background'): Promise<void> };
  notice: SyncProgressNotice;
  logger: Logger;
}

/** A stream's sync, on the sync task queue (its worker's slots bound the engines running syncs). */
export function createConnectionStreamActivities(deps: StreamActivityDeps) {
  return {
    async syncConnectionStream(input: { jobId: string; connectionId: string; stream: StreamSelection }): Promise<StreamReport> {
      const context = Context.current();
      const job = await deps.store.first(findSyncJob, { id: input.jobId });
      const connection = await deps.store.first(findConnectionById, { id: input.connectionId });
      if (!job || !connection) throw failureOf(new ConnectionGone());
      await deps.lifecycle.streamStarted(job, input.stream);
      let progress: StreamProgress = progressOf(zeroTotals);
      let signalled = 0;
      const heartbeat = setInterval(() => context.heartbeat(progress), 1_000);
      const onProgress = (next: StreamProgress) => {
        progress = next;
        context.heartbeat(progress);
        // A signal at most every second: a stream of small batches must not flood the workflow's history.
        const workflowId = context.info.workflowExecution?.workflowId;
        if (!workflowId || Date.now() - signalled < 1_000) return;
        signalled = Date.now();
        void deps.notice.progress(workflowId, input.stream.name, next).catch((error: unknown) => deps.logger.debug('progress not signalled', { error }));
      };
      // The storage check runs while the stream opens its source and the lake; nothing is read before it passed.
      const room = deps.storage.assertRoom(job.workspace_id, 'background');
      room.catch(() => {});
      try {
        // A workspace at its limit fails for that reason, whatever else went wrong meanwhile.
        const outcome = await syncStream(deps, { jobId: job.id, connection, stream: input.stream, signal: context.cancellationSignal, writeAllowed: room, onProgress }).catch(async (error: unknown) => {
          await room;
          throw error;
        });
        await deps.lifecycle.streamSucceeded(job, input.stream, outcome);
        return {
          name: outcome.name,
          sync_mode: outcome.sync_mode,
          status: 'succeeded',
          progress: progressOf(outcome.totals),
          schema_changes: outcome.schemaChanges,
          table: outcome.table,
          changed: outcome.changed,
          snapshot_id: outcome.snapshotId,
          engine_ms: outcome.engineMs,
        };
      } catch (error) {
        if (context.cancellationSignal.aborted) throw context.cancellationSignal.reason;
        deps.logger.warn('stream sync failed', { job_id: job.id, stream: input.stream.name, attempt: context.info.attempt, error });
        throw failureOf(error);
      } finally {
        clearInterval(heartbeat);
      }
    },
  };
}

/**
 * An activity failure with a message fit for the job's record (server paths removed) and the error
 * code as its type. A source that refused (credentials, a missing table) or a deleted connection is
 * not retried; an unreachable source or the service's own trouble is.
 */
function failureOf(error: unknown): ApplicationFailure {
  if (error instanceof ConnectionGone) return ApplicationFailure.create({ message: error.message, type: 'NOT_FOUND', nonRetryable: true });
  if (error instanceof SourceError) {
    const permanent = error.failure !== 'unreachable' && error.failure !== 'other';
    return ApplicationFailure.create({ message: error.message, type: 'SOURCE_ERROR', nonRetryable: permanent });
  }
  if (error instanceof AppError) return ApplicationFailure.create({ message: error.message, type: error.code, nonRetryable: error.status < 500 });
  const message = error instanceof Error ? error.message : String(error);
  return ApplicationFailure.create({ message: scrubServerDetails(message, []), type: 'INTERNAL_ERROR' });
}

export type ConnectionSyncActivities = ReturnType<typeof createConnectionSyncActivities>;
export type ConnectionStreamActivities = ReturnType<typeof createConnectionStreamActivities>;
