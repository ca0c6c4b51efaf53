-- Query accounting: the sliding-window rate limit (one row per counted query, kept a few minutes) and
-- one usage record per query, the data the usage and billing endpoints read.

CREATE TABLE rate_limit_events (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  -- Milliseconds since the epoch: the window arithmetic is plain integer comparison on both backends.
  occurred_at_ms BIGINT NOT NULL
);
CREATE INDEX rate_limit_events_window ON rate_limit_events (workspace_id, occurred_at_ms);

CREATE TABLE query_usage (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  user_id TEXT,
  api_key_id TEXT,
  -- execute, query, job, saved_query, chart…
  source TEXT NOT NULL,
  status TEXT NOT NULL,
  error_code TEXT,
  statement_hash TEXT NOT NULL,
  bytes_scanned BIGINT NOT NULL,
  cpu_ms BIGINT NOT NULL,
  rows_returned BIGINT NOT NULL,
  duration_ms BIGINT NOT NULL,
  cost_eur DOUBLE PRECISION NOT NULL,
  -- Set for queries run by jobs: a job records its usage once even if its activity retries.
  job_id TEXT,
  created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX query_usage_workspace_time ON query_usage (workspace_id, created_at);
CREATE UNIQUE INDEX query_usage_job ON query_usage (job_id) WHERE job_id IS NOT NULL;
