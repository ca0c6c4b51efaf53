import { openSyncJob } from './open-sync-job';
import type { SchemaChange } from '../engine/sync/sync-lake';
import type { StreamSelection } from '../connectors/connector';
import type { Store } from '../store/store';
import { connectorOf } from '../connectors/registry';
import type { QueryGate, SyncSettlement } from '../query/query-gate';
import type { Clock } from '../util/clock';
import type { ConfiguredStream, RefusedStream, SkippedStream, SyncRequest } from './stream-plan';
import { namedStreams, planStreams } from './stream-plan';
import type { DiscoveredStreams } from './discovered-streams';
import type { StreamOutcome, StreamProgress } from './stream-sync';
import {
  claimSyncJob,
  findConnectionById,
  findSyncJob,
  finishSyncJob,
  markSyncStateEnded,
  markSyncStateRunning,
  recordConnectionSync,
  upsertSyncState,
  type ConnectionRow,
  type SyncJobRow,
  type StreamStatus,
  type SyncJobStatus,
} from './queries';

/** How one stream of a job ended, as the workflow collects it. */
export interface StreamReport {
  name: string;
  sync_mode: string;
  status: StreamStatus;
  progress: StreamProgress;
  /** Why a skipped stream could not be read. */
  reason?: string;
  error?: string;
  error_code?: string;
  schema_changes?: SchemaChange[];
  table?: string;
  changed?: boolean;
  snapshot_id?: number;
  engine_ms?: number;
}

export interface JobEnd {
  reports: StreamReport[];
  refused?: RefusedStream[];
  skipped?: SkippedStream[];
  cancelled: boolean;
  /** The job could not start its streams (the connection is gone, the source did not answer). */
  failure?: string;
}

/** The job's record and everything that follows from how it ended. */
export class SyncJobLifecycle {
  constructor(
    private readonly store: Store,
    private readonly discovered: DiscoveredStreams,
    /** Counts the job's usage as every statement's is, recorded with its end. */
    private readonly gate: Pick<QueryGate, 'settleSync'>,
    private readonly clock: Clock,
  ) {}

  /** A scheduled run records its job; none when the connection is gone, paused, or already syncing. */
  async openScheduled(input: { workspaceId: string; connectionId: string; workflowId: string }): Promise<string | null> {
    const opened = await openSyncJob(this.store, input.connectionId, {
      trigger: 'schedule',
      workflowId: input.workflowId,
      request: null,
      createdBy: null,
      now: this.now(),
      accepts: (connection) => connection.status === 'active',
    });
    return 'created' in opened ? opened.created.id : null;
  }

  /**
   * Marks the job running and decides its streams from the source's own (discovered, see
   * DiscoveredStreams): those read from the source's change log apart, as they share its one slot.
   */
  async start(jobId: string): Promise<{
    job: SyncJobRow;
    connection: ConnectionRow;
    streams: StreamSelection[];
    changeLogStreams: StreamSelection[];
    refused: RefusedStream[];
    skipped: SkippedStream[];
  }> {
    const job = await this.store.first(findSyncJob, { id: jobId });
    if (!job) throw new Error(`sync job ${jobId} does not exist`);
    const connection = await this.store.first(findConnectionById, { id: job.connection_id });
    if (!connection) throw new ConnectionGone();
    await this.store.run(claimSyncJob, { id: jobId, now: this.now() });
    const configured = connection.streams ? (JSON.parse(connection.streams) as ConfiguredStream[]) : null;
    const request = job.request ? (JSON.parse(job.request) as SyncRequest) : {};
    const discovered = await this.discovered.naming(connection, namedStreams(configured, request));
    const { plans, refused, skipped } = planStreams(discovered, configured, request);
    const changeLog = connectorOf(connection.connector_type)?.changeLog;
    const spec = JSON.parse(connection.spec) as Record<string, unknown>;
    const fromLog = plans.filter((plan) => changeLog?.reads(spec, plan) === true);
    const started = (await this.store.first(findSyncJob, { id: jobId }))!;
    return { job: started, connection, streams: plans.filter((plan) => !fromLog.includes(plan)), changeLogStreams: fromLog, refused, skipped };
  }

  async streamStarted(job: SyncJobRow, stream: StreamSelection): Promise<void> {
    await this.store.run(markSyncStateRunning, {
      connection_id: job.connection_id,
      workspace_id: job.workspace_id,
      stream: stream.name,
      sync_mode: stream.syncMode,
      job_id: job.id,
    });
  }

  async streamSkipped(job: SyncJobRow, stream: StreamSelection, reason: string): Promise<void> {
    await this.store.run(markSyncStateEnded, {
      connection_id: job.connection_id,
      workspace_id: job.workspace_id,
      stream: stream.name,
      sync_mode: stream.syncMode,
      job_id: job.id,
      status: 'skipped',
      reason,
      now: this.now(),
    });
  }

  async streamSucceeded(job: SyncJobRow, stream: StreamSelection, outcome: StreamOutcome): Promise<void> {
    await this.store.run(upsertSyncState, {
      connection_id: job.connection_id,
      workspace_id: job.workspace_id,
      stream: stream.name,
      sync_mode: stream.syncMode,
      cursor_field: stream.cursorField ?? null,
      cursor_value: outcome.cursor === null ? null : JSON.stringify(outcome.cursor),
      primary_key: stream.primaryKey.length ? JSON.stringify(stream.primaryKey) : null,
      records_total: outcome.recordsTotal,
      last_job_id: job.id,
      last_synced_at: this.now(),
      status: 'succeeded',
    });
  }

  /**
   * Records how the job ended (once: a retry finds it closed), with its usage record in the same
   * transaction (through the query gate, as every statement's), and says which tables changed. Streams that failed, were cancelled or skipped say so
   * in their state. The job succeeds when every stream it could read succeeded: a skipped stream (one
   * the credentials cannot read) does not fail it, unless no stream at all could be read.
   */
  async finish(jobId: string, end: JobEnd): Promise<{ status: SyncJobStatus; changedTables: string[] }> {
    const job = await this.store.first(findSyncJob, { id: jobId });
    if (!job) throw new Error(`sync job ${jobId} does not exist`);
    const reports = [
      ...end.reports,
      ...(end.refused ?? []).map((stream): StreamReport => ({
        name: stream.name,
        sync_mode: stream.syncMode,
        status: 'failed',
        progress: zero,
        error: stream.error,
        error_code: 'BAD_REQUEST',
      })),
      ...(end.skipped ?? []).map((stream): StreamReport => ({
        name: stream.name,
        sync_mode: stream.syncMode,
        status: 'skipped',
        progress: zero,
        reason: stream.reason,
      })),
    ];
    const failed = reports.filter((report) => report.status === 'failed');
    const skipped = reports.filter((report) => report.status === 'skipped');
    const nothingRead = !end.failure && reports.length > 0 && skipped.length === reports.length;
    const status: SyncJobStatus = end.cancelled ? 'cancelled' : end.failure || failed.length || nothingRead ? 'failed' : 'succeeded';
    const now = this.now();
    const firstFailure =
      end.failure ??
      failed[0]?.error ??
      (nothingRead ? `no stream could be read: ${skipped.map((report) => `${report.name} (${report.reason})`).join('; ')}` : undefined);
    const written = reports.reduce((total, report) => total + report.progress.records_written, 0);
    const changedTables = reports.filter((report) => report.changed && report.table).map((report) => report.table!);
    const usage: SyncSettlement = {
      workspaceId: job.workspace_id,
      connectionId: job.connection_id,
      status: status === 'succeeded' ? 'succeeded' : 'failed',
      errorCode: status === 'succeeded' ? null : status === 'cancelled' ? 'CANCELLED' : (failed[0]?.error_code ?? 'SOURCE_ERROR'),
      bytesRead: reports.reduce((total, report) => total + report.progress.bytes_read, 0),
      recordsWritten: written,
      engineMs: reports.reduce((total, report) => total + (report.engine_ms ?? 0), 0),
      durationMs: job.started_at ? Date.parse(now) - Date.parse(job.started_at) : 0,
    };
    await this.gate.settleSync({ userId: job.created_by, apiKeyId: null, kind: 'sync', jobId }, usage, async (tx) => {
      const closed = await tx.run(finishSyncJob, {
        id: jobId,
        status,
        streams: JSON.stringify(reports.map(streamView)),
        records_written: written,
        schema_changes: JSON.stringify(reports.flatMap((report) => report.schema_changes ?? [])),
        error_code: status === 'failed' ? (failed[0]?.error_code ?? 'SOURCE_ERROR') : null,
        error_message:
          status === 'failed'
            ? `${failed.length ? `${failed.length} of ${reports.length} streams failed: ` : ''}${firstFailure ?? 'the sync failed'}`.slice(0, 2_000)
            : null,
        snapshot_id: Math.max(0, ...reports.map((report) => report.snapshot_id ?? 0)) || null,
        engine_ms: usage.engineMs,
        now,
      });
      if (closed === 0) return false;
      await tx.run(recordConnectionSync, { id: job.connection_id, status, now });
      for (const report of reports.filter((candidate) => candidate.status !== 'succeeded')) {
        await tx.run(markSyncStateEnded, {
          connection_id: job.connection_id,
          workspace_id: job.workspace_id,
          stream: report.name,
          sync_mode: report.sync_mode,
          job_id: job.id,
          status: report.status,
          reason: report.reason ?? null,
          now,
        });
      }
      return true;
    });
    const final = (await this.store.first(findSyncJob, { id: jobId }))!;
    return { status: final.status, changedTables: final.status === status ? changedTables : [] };
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}

const zero: StreamProgress = { records_read: 0, records_written: 0, bytes_read: 0 };

/** The connection of a job is gone (deleted while the job waited): nothing to retry. */
export class ConnectionGone extends Error {
  constructor() {
    super('The connection was deleted');
    this.name = 'ConnectionGone';
  }
}

function streamView(report: StreamReport) {
  return {
    name: report.name,
    status: report.status,
    sync_mode: report.sync_mode,
    ...report.progress,
    ...(report.reason ? { reason: report.reason } : {}),
    ...(report.error ? { error: report.error } : {}),
  };
}
