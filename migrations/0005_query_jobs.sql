-- Asynchronous query jobs. The row is the record of a job from submission on; while its workflow runs,
-- Temporal answers for its live state, and once it closes this row does.

CREATE TABLE query_jobs (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  user_id TEXT NOT NULL,
  sql TEXT NOT NULL,
  -- 1 to 10; 10 runs first.
  priority INTEGER NOT NULL,
  force_scan INTEGER NOT NULL DEFAULT 0,
  -- How pages of the result are given: json (rows as arrays), objects or csv.
  result_format TEXT NOT NULL DEFAULT 'json',
  -- pending, running, succeeded, failed, cancelled
  status TEXT NOT NULL,
  idempotency_key TEXT,
  request_hash TEXT NOT NULL,
  submitted_at TIMESTAMPTZ NOT NULL,
  started_at TIMESTAMPTZ,
  finished_at TIMESTAMPTZ,
  attempts INTEGER NOT NULL DEFAULT 0,
  error_code TEXT,
  error_message TEXT,
  error_hint TEXT,
  columns TEXT,
  row_count BIGINT,
  bytes_scanned BIGINT,
  cpu_ms BIGINT,
  cost_eur DOUBLE PRECISION,
  -- Key of the result file in the lake storage, kept until result_expires_at.
  result_key TEXT,
  result_expires_at TIMESTAMPTZ,
  result_deleted_at TIMESTAMPTZ
);
CREATE INDEX query_jobs_workspace ON query_jobs (workspace_id, submitted_at);
CREATE UNIQUE INDEX query_jobs_idempotency ON query_jobs (workspace_id, user_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX query_jobs_result_expiry ON query_jobs (result_expires_at) WHERE result_deleted_at IS NULL AND result_key IS NOT NULL;
