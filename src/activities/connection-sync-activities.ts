import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Logger } from '../logging/logger';
import type { StreamSelection } from '../connectors/connector';
import { SourceError } from '../connectors/source-error';
import { AppError } from '../errors/app-error';
import { scrubServerDetails } from '../engine/sql/map-duckdb-error';
import { findConnectionById, findSyncJob } from '../connections/queries';
import type { RefusedStream, SkippedStream } from '../connections/stream-plan';
import { progressOf, syncStream, type StreamOutcome, type StreamProgress } from '../connections/stream-sync';
import { ConnectionGone, type JobEnd, type StreamReport, type SyncJobLifecycle } from '../connections/sync-job-lifecycle';
import type { SyncCompleted, SyncListener } from '../connections/sync-listeners';
import type { SyncProgressNotice } from '../connections/sync-workflows';
import { zeroTotals } from '../connections/sync-commit';
import { syncChangeLog, type ChangeLogDeps } from '../connections/change-log-sync';

export type { StreamReport } from '../connections/sync-job-lifecycle';

/** What a job runs: its streams, on which task queue, how many at once, for how long at most. */
export interface SyncPlan {
  streams: StreamSelection[];
  /** Streams read from the source's change log, synced together by one activity (absent in older plans). */
  changeLogStreams?: StreamSelection[];
  refused: RefusedStream[];
  /** Absent in plans made before streams could be skipped. */
  skipped?: SkippedStream[];
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
        const { job, streams, changeLogStreams, refused, skipped } = await deps.lifecycle.start(jobId);
        return {
          streams,
          changeLogStreams,
          refused,
          skipped,
          taskQueue: deps.streamTaskQueue(job.workspace_id),
          parallelism: deps.parallelism,
          streamTimeoutMs: deps.streamTimeoutMs,
          startedAt: job.started_at ?? new Date().toISOString(),
        };
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

export interface StreamActivityDeps extends ChangeLogDeps {
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
      const reporter = progressReporter(deps, context);
      let progress: StreamProgress = progressOf(zeroTotals);
      const onProgress = (next: StreamProgress) => {
        progress = next;
        reporter.report(input.stream.name, next);
      };
      // The storage check runs while the stream opens its source and the lake; nothing is read before it passed.
      const room = deps.storage.assertRoom(job.workspace_id, 'background');
      room.catch(() => {});
      try {
        // A workspace at its limit fails for that reason, whatever else went wrong meanwhile.
        const outcome = await syncStream(deps, {
          jobId: job.id,
          connection,
          stream: input.stream,
          signal: context.cancellationSignal,
          writeAllowed: room,
          onProgress,
        }).catch(async (error: unknown) => {
          await room;
          throw error;
        });
        await deps.lifecycle.streamSucceeded(job, input.stream, outcome);
        return succeeded(outcome);
      } catch (error) {
        if (context.cancellationSignal.aborted) throw context.cancellationSignal.reason;
        // The credentials may not read this stream (a scope taken away since discovery): skipped, the others go on.
        if (error instanceof SourceError && error.failure === 'not_permitted') {
          await deps.lifecycle.streamSkipped(job, input.stream, error.message);
          return { name: input.stream.name, sync_mode: input.stream.syncMode, status: 'skipped', progress, reason: error.message };
        }
        deps.logger.warn('stream sync failed', { job_id: job.id, stream: input.stream.name, attempt: context.info.attempt, error });
        throw failureOf(error);
      } finally {
        reporter.stop();
      }
    },

    /** The streams that read from the source's change log, together: they share its one slot (see syncChangeLog). */
    async syncChangeLogStreams(input: { jobId: string; connectionId: string; streams: StreamSelection[] }): Promise<StreamReport[]> {
      const context = Context.current();
      const job = await deps.store.first(findSyncJob, { id: input.jobId });
      const connection = await deps.store.first(findConnectionById, { id: input.connectionId });
      if (!job || !connection) throw failureOf(new ConnectionGone());
      for (const stream of input.streams) await deps.lifecycle.streamStarted(job, stream);
      const reporter = progressReporter(deps, context);
      const room = deps.storage.assertRoom(job.workspace_id, 'background');
      room.catch(() => {});
      try {
        const outcomes = await syncChangeLog(deps, {
          jobId: job.id,
          connection,
          streams: input.streams,
          signal: context.cancellationSignal,
          writeAllowed: room,
          onProgress: reporter.report,
        }).catch(async (error: unknown) => {
          await room;
          throw error;
        });
        const reports: StreamReport[] = [];
        for (const [index, outcome] of outcomes.entries()) {
          await deps.lifecycle.streamSucceeded(job, input.streams[index]!, outcome);
          reports.push(succeeded(outcome));
        }
        return reports;
      } catch (error) {
        if (context.cancellationSignal.aborted) throw context.cancellationSignal.reason;
        deps.logger.warn('change log sync failed', {
          job_id: job.id,
          streams: input.streams.map((stream) => stream.name),
          attempt: context.info.attempt,
          error,
        });
        throw failureOf(error);
      } finally {
        reporter.stop();
      }
    },
  };
}

/**
 * A stream activity's progress: heartbeats carrying the latest counts, and a signal to the workflow
 * (its `status` query) at most every second per stream, so that a stream of small batches does not
 * flood the workflow's history.
 */
/** What the job says of a stream that synced. */
function succeeded(outcome: StreamOutcome): StreamReport {
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
}

function progressReporter(deps: Pick<StreamActivityDeps, 'notice' | 'logger'>, context: Context) {
  const latest: Record<string, StreamProgress> = {};
  const signalled = new Map<string, number>();
  const heartbeat = setInterval(() => context.heartbeat(latest), 1_000);
  return {
    report: (stream: string, progress: StreamProgress) => {
      latest[stream] = progress;
      context.heartbeat(latest);
      const workflowId = context.info.workflowExecution?.workflowId;
      if (!workflowId || Date.now() - (signalled.get(stream) ?? 0) < 1_000) return;
      signalled.set(stream, Date.now());
      void deps.notice.progress(workflowId, stream, progress).catch((error: unknown) => deps.logger.debug('progress not signalled', { error }));
    },
    stop: () => clearInterval(heartbeat),
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
