-- Connections pull data from external sources into lake tables (`<connection name>.<stream>`), as sync
-- jobs on Temporal. Secrets in a connection's spec never sit in clear: the spec is stored without them
-- and they are sealed apart (AES-256-GCM, bound to the connection's id). A sync job's row is its record
-- from the trigger on; while its workflow runs, Temporal answers for its live progress. The state of
-- each stream (its cursor) is committed with the data in the lake itself; sync_states mirrors it for the
-- API once a stream ends.

CREATE TABLE connections (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  -- The lake schema its streams land in; unique per workspace, never changed.
  name TEXT NOT NULL,
  connector_type TEXT NOT NULL,
  -- JSON, secrets left out.
  spec TEXT NOT NULL,
  secrets_sealed TEXT,
  -- JSON list of configured streams (sync mode, cursor field, primary key); NULL: every stream, defaults.
  streams TEXT,
  -- NULL (manual), a 5-field cron in UTC or `every <duration>`.
  sync_schedule TEXT,
  -- synced or live
  query_mode TEXT NOT NULL,
  -- active, paused or needs_reauth
  status TEXT NOT NULL,
  last_sync_at TIMESTAMPTZ,
  last_sync_status TEXT,
  created_by TEXT,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX connections_workspace_name ON connections (workspace_id, name);
CREATE INDEX connections_workspace_created ON connections (workspace_id, created_at);

CREATE TABLE sync_jobs (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  -- Kept after the connection is deleted, with its name, so the workspace's history stays readable.
  connection_id TEXT NOT NULL,
  connection_name TEXT NOT NULL,
  -- The job id for a manual run; `<schedule id>-<time>` for a scheduled one.
  workflow_id TEXT NOT NULL,
  -- manual, schedule or oauth
  trigger TEXT NOT NULL,
  -- pending, running, succeeded, failed, cancelled
  status TEXT NOT NULL,
  -- The trigger's body (streams, sync modes, full refresh), JSON.
  request TEXT,
  -- Per stream: status, records read and written, bytes read, sync mode, error (JSON list).
  streams TEXT,
  records_written BIGINT NOT NULL DEFAULT 0,
  -- Columns added and types widened in the lake tables, JSON list.
  schema_changes TEXT,
  error_code TEXT,
  error_message TEXT,
  snapshot_id BIGINT,
  engine_ms BIGINT,
  created_by TEXT,
  created_at TIMESTAMPTZ NOT NULL,
  started_at TIMESTAMPTZ,
  finished_at TIMESTAMPTZ
);
CREATE INDEX sync_jobs_connection_created ON sync_jobs (connection_id, created_at);
CREATE INDEX sync_jobs_workspace_created ON sync_jobs (workspace_id, created_at);
-- At most one open sync per connection: a second one is refused (SYNC_IN_PROGRESS) by this index, also
-- between API replicas and against a scheduled run.
CREATE UNIQUE INDEX sync_jobs_one_open ON sync_jobs (connection_id) WHERE status IN ('pending', 'running');

CREATE TABLE sync_states (
  connection_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  stream TEXT NOT NULL,
  sync_mode TEXT NOT NULL,
  cursor_field TEXT,
  -- JSON: the cursor value as the source reads it back.
  cursor_value TEXT,
  primary_key TEXT,
  records_total BIGINT NOT NULL DEFAULT 0,
  last_job_id TEXT,
  last_synced_at TIMESTAMPTZ,
  -- running, succeeded, failed or cancelled: how the stream's last sync went.
  status TEXT NOT NULL,
  PRIMARY KEY (connection_id, stream)
);
CREATE INDEX sync_states_workspace ON sync_states (workspace_id);
