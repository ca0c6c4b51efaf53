import type { JsonValue } from '../connectors/connector';
import type { SchemaChange } from '../engine/sync/sync-lake';
import type { ConnectionSecrets } from './connection-secrets';
import type { ConfiguredStream } from './stream-plan';
import type { LiveSyncStatus, SyncStreamStatus } from './sync-workflows';
import { nextRuns, parseSchedule } from '../schedules/schedule';
import type { ConnectionRow, ConnectionStatus, DeletionMode, QueryMode, SyncJobRow, SyncJobStatus, SyncStateRow, SyncTrigger } from './queries';

export interface ConnectionView {
  id: string;
  workspace_id: string;
  name: string;
  connector_type: string;
  spec: Record<string, unknown>;
  schema_name: string;
  sync_schedule: string | null;
  /** The schedule's next run times (UTC), none while the connection is paused or has no schedule. */
  next_runs: string[];
  query_mode: QueryMode;
  deletion_mode: DeletionMode;
  key_comparison_every: string | null;
  status: ConnectionStatus;
  streams: ConfiguredStream[] | null;
  last_sync_at: string | null;
  last_sync_status: SyncJobStatus | null;
  created_at: string;
  updated_at: string;
}

/** How many of a schedule's next run times answers show. */
const shownRuns = 3;

export function connectionView(row: ConnectionRow, secrets: ConnectionSecrets, now: Date): ConnectionView {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    name: row.name,
    connector_type: row.connector_type,
    spec: secrets.masked(row),
    schema_name: row.name,
    sync_schedule: row.sync_schedule,
    next_runs: row.status === 'active' ? upcomingRuns(row.sync_schedule, now) : [],
    query_mode: row.query_mode,
    deletion_mode: row.deletion_mode,
    key_comparison_every: row.key_comparison_every,
    status: row.status,
    streams: row.streams ? (JSON.parse(row.streams) as ConfiguredStream[]) : null,
    last_sync_at: row.last_sync_at,
    last_sync_status: row.last_sync_status,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A stored schedule's next run times; one stored before today's rules that no longer parses shows none. */
function upcomingRuns(text: string | null, now: Date): string[] {
  if (text === null) return [];
  const schedule = parseSchedule(text, { minimumIntervalMs: 0 });
  return 'problem' in schedule ? [] : nextRuns(schedule, now, shownRuns).map((run) => run.toISOString());
}

export interface SyncJobView {
  id: string;
  connection_id: string;
  connection_name: string;
  workflow_id: string;
  status: SyncJobStatus;
  trigger: SyncTrigger;
  streams: SyncStreamStatus[];
  /** While the job runs: the stream being read (the first of those running). */
  current_stream: string | null;
  records_read: number;
  records_written: number;
  bytes_read: number;
  schema_changes: SchemaChange[];
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  error: { code: string; message: string } | null;
  snapshot_id: number | null;
}

/** The job as its record says, or, while its workflow runs, as the workflow answers. */
export function syncJobView(row: SyncJobRow, live: LiveSyncStatus | undefined): SyncJobView {
  const streams = live && isOpen(row.status) ? live.streams : row.streams ? (JSON.parse(row.streams) as SyncStreamStatus[]) : [];
  const status = live && isOpen(row.status) ? live.status : row.status;
  const startedAt = row.started_at ?? live?.startedAt ?? null;
  return {
    id: row.id,
    connection_id: row.connection_id,
    connection_name: row.connection_name,
    workflow_id: row.workflow_id,
    status,
    trigger: row.trigger,
    streams: streams.map((stream) => ({ ...stream, ...(stream.error ? { error: stream.error } : {}) })),
    current_stream: isOpen(status) ? (streams.find((stream) => stream.status === 'running')?.name ?? null) : null,
    records_read: streams.reduce((total, stream) => total + stream.records_read, 0),
    records_written: isOpen(row.status) ? streams.reduce((total, stream) => total + stream.records_written, 0) : Number(row.records_written),
    bytes_read: streams.reduce((total, stream) => total + stream.bytes_read, 0),
    schema_changes: row.schema_changes ? (JSON.parse(row.schema_changes) as SchemaChange[]) : [],
    created_at: row.created_at,
    started_at: startedAt,
    finished_at: row.finished_at,
    duration_ms: startedAt && row.finished_at ? Date.parse(row.finished_at) - Date.parse(startedAt) : null,
    error: row.error_code ? { code: row.error_code, message: row.error_message ?? '' } : null,
    snapshot_id: row.snapshot_id === null ? null : Number(row.snapshot_id),
  };
}

export function isOpen(status: SyncJobStatus): boolean {
  return status === 'pending' || status === 'running';
}

export interface SyncStateView {
  stream: string;
  sync_mode: string;
  cursor_field: string | null;
  cursor_value: JsonValue;
  primary_key: string[];
  records_total: number;
  last_job_id: string | null;
  last_synced_at: string | null;
  status: string;
  reason?: string;
}

export function syncStateView(row: SyncStateRow): SyncStateView {
  return {
    stream: row.stream,
    sync_mode: row.sync_mode,
    cursor_field: row.cursor_field,
    cursor_value: row.cursor_value === null ? null : (JSON.parse(row.cursor_value) as JsonValue),
    primary_key: row.primary_key ? (JSON.parse(row.primary_key) as string[]) : [],
    records_total: Number(row.records_total),
    last_job_id: row.last_job_id,
    last_synced_at: row.last_synced_at,
    status: row.status,
    ...(row.reason ? { reason: row.reason } : {}),
  };
}
