import { namedQuery } from '../store/named-query';

export type QueryMode = 'synced' | 'live';
/** What a record deleted at the source does to its lake row: `delete` removes it, `mark` sets its `_deleted_at`. */
export type DeletionMode = 'delete' | 'mark';
export type ConnectionStatus = 'active' | 'paused' | 'needs_reauth';
export type SyncJobStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'cancelled';
/** A stream of a job: a job's words, and `skipped` for one the credentials cannot read. */
export type StreamStatus = SyncJobStatus | 'skipped';
export type SyncTrigger = 'manual' | 'schedule' | 'oauth';

export interface ConnectionRow {
  id: string;
  workspace_id: string;
  name: string;
  connector_type: string;
  /** JSON without secrets. */
  spec: string;
  secrets_sealed: string | null;
  streams: string | null;
  sync_schedule: string | null;
  query_mode: QueryMode;
  deletion_mode: DeletionMode;
  /** How often deduplicated streams read by a cursor compare their keys with the source's (`24h`); null: never. */
  key_comparison_every: string | null;
  status: ConnectionStatus;
  last_sync_at: string | null;
  last_sync_status: SyncJobStatus | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface SyncJobRow {
  id: string;
  workspace_id: string;
  connection_id: string;
  connection_name: string;
  workflow_id: string;
  trigger: SyncTrigger;
  status: SyncJobStatus;
  request: string | null;
  streams: string | null;
  records_written: number;
  schema_changes: string | null;
  error_code: string | null;
  error_message: string | null;
  snapshot_id: number | null;
  engine_ms: number | null;
  created_by: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface SyncStateRow {
  connection_id: string;
  workspace_id: string;
  stream: string;
  sync_mode: string;
  cursor_field: string | null;
  cursor_value: string | null;
  primary_key: string | null;
  records_total: number;
  last_job_id: string | null;
  last_synced_at: string | null;
  status: string;
  /** Why a skipped stream could not be read. */
  reason: string | null;
  /** When the stream's keys were last compared with the source's. */
  keys_compared_at: string | null;
}

type Id = { id: string };
type InWorkspace = { workspace_id: string };
type Page = { limit: number; offset: number };

export const insertConnection = namedQuery<Omit<ConnectionRow, 'last_sync_at' | 'last_sync_status'>>(
  'connections.insert',
  `INSERT INTO connections (id, workspace_id, name, connector_type, spec, secrets_sealed, streams, sync_schedule, query_mode, deletion_mode, key_comparison_every, status, created_by, created_at, updated_at)
   VALUES (:id, :workspace_id, :name, :connector_type, :spec, :secrets_sealed, :streams, :sync_schedule, :query_mode, :deletion_mode, :key_comparison_every, :status, :created_by, :created_at, :updated_at)`,
);

export const updateConnection = namedQuery<
  Pick<
    ConnectionRow,
    'id' | 'spec' | 'secrets_sealed' | 'streams' | 'sync_schedule' | 'query_mode' | 'deletion_mode' | 'key_comparison_every' | 'status' | 'updated_at'
  >
>(
  'connections.update',
  `UPDATE connections SET spec = :spec, secrets_sealed = :secrets_sealed, streams = :streams, sync_schedule = :sync_schedule, query_mode = :query_mode,
     deletion_mode = :deletion_mode, key_comparison_every = :key_comparison_every, status = :status, updated_at = :updated_at
   WHERE id = :id`,
);

export const findConnection = namedQuery<Id & InWorkspace, ConnectionRow>(
  'connections.find',
  'SELECT * FROM connections WHERE id = :id AND workspace_id = :workspace_id',
);
export const findConnectionById = namedQuery<Id, ConnectionRow>('connections.find_by_id', 'SELECT * FROM connections WHERE id = :id');
export const findConnectionByName = namedQuery<InWorkspace & { name: string }, Id>(
  'connections.find_by_name',
  'SELECT id FROM connections WHERE workspace_id = :workspace_id AND name = :name',
);
export const listConnections = namedQuery<InWorkspace & Page, ConnectionRow>(
  'connections.list',
  'SELECT * FROM connections WHERE workspace_id = :workspace_id ORDER BY created_at, id LIMIT :limit OFFSET :offset',
);
export const countConnections = namedQuery<InWorkspace, { count: number }>(
  'connections.count',
  'SELECT count(*) AS count FROM connections WHERE workspace_id = :workspace_id',
);
export const listLiveConnections = namedQuery<InWorkspace, ConnectionRow>(
  'connections.list_live',
  "SELECT * FROM connections WHERE workspace_id = :workspace_id AND query_mode = 'live' ORDER BY name",
);
export const listWorkspaceConnectionIds = namedQuery<InWorkspace, Id>('connections.list_ids', 'SELECT id FROM connections WHERE workspace_id = :workspace_id');
export const deleteConnection = namedQuery<Id>('connections.delete', 'DELETE FROM connections WHERE id = :id');
export const recordConnectionSync = namedQuery<Id & { status: SyncJobStatus; now: string }>(
  'connections.record_sync',
  'UPDATE connections SET last_sync_at = :now, last_sync_status = :status WHERE id = :id',
);

export const insertSyncJob = namedQuery<
  Pick<SyncJobRow, 'id' | 'workspace_id' | 'connection_id' | 'connection_name' | 'workflow_id' | 'trigger' | 'request' | 'created_by' | 'created_at'>
>(
  'sync_jobs.insert',
  `INSERT INTO sync_jobs (id, workspace_id, connection_id, connection_name, workflow_id, trigger, status, request, created_by, created_at)
   VALUES (:id, :workspace_id, :connection_id, :connection_name, :workflow_id, :trigger, 'pending', :request, :created_by, :created_at)`,
);
export const findSyncJob = namedQuery<Id, SyncJobRow>('sync_jobs.find', 'SELECT * FROM sync_jobs WHERE id = :id');
export const findOpenSyncJob = namedQuery<{ connection_id: string }, SyncJobRow>(
  'sync_jobs.find_open',
  "SELECT * FROM sync_jobs WHERE connection_id = :connection_id AND status IN ('pending', 'running')",
);
export const listConnectionSyncJobs = namedQuery<{ connection_id: string } & Page, SyncJobRow>(
  'sync_jobs.list_for_connection',
  'SELECT * FROM sync_jobs WHERE connection_id = :connection_id ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset',
);
export const countConnectionSyncJobs = namedQuery<{ connection_id: string }, { count: number }>(
  'sync_jobs.count_for_connection',
  'SELECT count(*) AS count FROM sync_jobs WHERE connection_id = :connection_id',
);
export const listWorkspaceSyncJobs = namedQuery<InWorkspace & Page, SyncJobRow>(
  'sync_jobs.list_for_workspace',
  'SELECT * FROM sync_jobs WHERE workspace_id = :workspace_id ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset',
);
export const countWorkspaceSyncJobs = namedQuery<InWorkspace, { count: number }>(
  'sync_jobs.count_for_workspace',
  'SELECT count(*) AS count FROM sync_jobs WHERE workspace_id = :workspace_id',
);
/** The job's run has begun: a pending job becomes running (a cancelled one stays cancelled). */
export const claimSyncJob = namedQuery<Id & { now: string }>(
  'sync_jobs.claim',
  "UPDATE sync_jobs SET status = 'running', started_at = COALESCE(started_at, :now) WHERE id = :id AND status IN ('pending', 'running')",
);
export const finishSyncJob = namedQuery<
  Id &
    Pick<SyncJobRow, 'status' | 'streams' | 'records_written' | 'schema_changes' | 'error_code' | 'error_message' | 'snapshot_id' | 'engine_ms'> & {
      now: string;
    }
>(
  'sync_jobs.finish',
  `UPDATE sync_jobs SET status = :status, streams = :streams, records_written = :records_written, schema_changes = :schema_changes, error_code = :error_code,
     error_message = :error_message, snapshot_id = :snapshot_id, engine_ms = :engine_ms, finished_at = :now
   WHERE id = :id AND status IN ('pending', 'running')`,
);
export const failOpenSyncJob = namedQuery<Id & { now: string; code: string; message: string }>(
  'sync_jobs.fail_open',
  `UPDATE sync_jobs SET status = 'failed', error_code = :code, error_message = :message, finished_at = :now WHERE id = :id AND status IN ('pending', 'running')`,
);
export const cancelOpenSyncJob = namedQuery<Id & { now: string }>(
  'sync_jobs.cancel_open',
  "UPDATE sync_jobs SET status = 'cancelled', finished_at = :now WHERE id = :id AND status IN ('pending', 'running')",
);

export const upsertSyncState = namedQuery<Omit<SyncStateRow, 'reason' | 'keys_compared_at'>>(
  'sync_states.upsert',
  `INSERT INTO sync_states (connection_id, workspace_id, stream, sync_mode, cursor_field, cursor_value, primary_key, records_total, last_job_id, last_synced_at, status)
   VALUES (:connection_id, :workspace_id, :stream, :sync_mode, :cursor_field, :cursor_value, :primary_key, :records_total, :last_job_id, :last_synced_at, :status)
   ON CONFLICT (connection_id, stream) DO UPDATE SET sync_mode = excluded.sync_mode, cursor_field = excluded.cursor_field, cursor_value = excluded.cursor_value,
     primary_key = excluded.primary_key, records_total = excluded.records_total, last_job_id = excluded.last_job_id, last_synced_at = excluded.last_synced_at,
     status = excluded.status, reason = NULL`,
);
export const markSyncStateRunning = namedQuery<{ connection_id: string; workspace_id: string; stream: string; sync_mode: string; job_id: string }>(
  'sync_states.mark_running',
  `INSERT INTO sync_states (connection_id, workspace_id, stream, sync_mode, records_total, last_job_id, status)
   VALUES (:connection_id, :workspace_id, :stream, :sync_mode, 0, :job_id, 'running')
   ON CONFLICT (connection_id, stream) DO UPDATE SET status = 'running', last_job_id = excluded.last_job_id`,
);
/** A stream whose sync failed or was cancelled keeps its cursor (its committed batches stand) and says how it ended. */
export const markSyncStateEnded = namedQuery<{
  connection_id: string;
  workspace_id: string;
  stream: string;
  sync_mode: string;
  job_id: string;
  status: string;
  reason: string | null;
  now: string;
}>(
  'sync_states.mark_ended',
  `INSERT INTO sync_states (connection_id, workspace_id, stream, sync_mode, records_total, last_job_id, last_synced_at, status, reason)
   VALUES (:connection_id, :workspace_id, :stream, :sync_mode, 0, :job_id, :now, :status, :reason)
   ON CONFLICT (connection_id, stream) DO UPDATE SET status = excluded.status, reason = excluded.reason, last_job_id = excluded.last_job_id, last_synced_at = excluded.last_synced_at`,
);
export const findSyncState = namedQuery<{ connection_id: string; stream: string }, SyncStateRow>(
  'sync_states.find',
  'SELECT * FROM sync_states WHERE connection_id = :connection_id AND stream = :stream',
);
export const markKeysCompared = namedQuery<{ connection_id: string; stream: string; now: string }>(
  'sync_states.mark_keys_compared',
  'UPDATE sync_states SET keys_compared_at = :now WHERE connection_id = :connection_id AND stream = :stream',
);
export const listSyncStates = namedQuery<{ connection_id: string }, SyncStateRow>(
  'sync_states.list',
  'SELECT * FROM sync_states WHERE connection_id = :connection_id ORDER BY stream',
);
export const deleteConnectionSyncStates = namedQuery<{ connection_id: string }>(
  'sync_states.delete_for_connection',
  'DELETE FROM sync_states WHERE connection_id = :connection_id',
);

export const deleteWorkspaceConnections = namedQuery<InWorkspace>(
  'connections.delete_for_workspace',
  'DELETE FROM connections WHERE workspace_id = :workspace_id',
);
export const deleteWorkspaceSyncJobs = namedQuery<InWorkspace>('sync_jobs.delete_for_workspace', 'DELETE FROM sync_jobs WHERE workspace_id = :workspace_id');
export const deleteWorkspaceSyncStates = namedQuery<InWorkspace>(
  'sync_states.delete_for_workspace',
  'DELETE FROM sync_states WHERE workspace_id = :workspace_id',
);
