-- The query history: every statement a workspace ran (interactive queries, executes, jobs, saved
-- queries, charts, transforms, syncs) with its SQL as sent and as translated, who ran it and what it
-- cost. The usage records stay the billing ledger (no SQL text, kept for invoices); history rows are
-- kept for the plan's query_history_days and go with the workspace.

ALTER TABLE plans ADD COLUMN query_history_days INTEGER NOT NULL DEFAULT 7;

UPDATE plans SET query_history_days = 30 WHERE id = 'team';
UPDATE plans SET query_history_days = 90 WHERE id IN ('business', 'enterprise');

CREATE TABLE query_history (
  -- A job's, a transform run's or a sync job's own id, so a retried attempt rewrites its one entry.
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  -- query, execute, job, saved_query, chart, transform, sync
  kind TEXT NOT NULL,
  -- running, succeeded, failed, cancelled
  status TEXT NOT NULL,
  error_code TEXT,
  sql TEXT NOT NULL,
  -- What DuckDB ran, when the Postgres dialect was rewritten; null when it ran as written.
  translated_sql TEXT,
  -- user, api_key, public or system; caller_id is the user's or the key's id.
  caller_type TEXT NOT NULL,
  caller_id TEXT,
  -- Milliseconds since the epoch: retention per plan is integer arithmetic on both backends.
  started_at_ms BIGINT NOT NULL,
  duration_ms BIGINT NOT NULL,
  rows_returned BIGINT,
  bytes_scanned BIGINT NOT NULL,
  cpu_ms BIGINT NOT NULL,
  cost_eur DOUBLE PRECISION NOT NULL,
  estimated_bytes BIGINT,
  job_id TEXT
);
CREATE INDEX query_history_workspace_time ON query_history (workspace_id, started_at_ms);
CREATE INDEX query_history_workspace_kind ON query_history (workspace_id, kind, started_at_ms);
