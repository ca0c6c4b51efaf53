-- SQL transforms: each materialises one read statement into a lake table (or view) of its workspace.
-- Together they form a dependency graph; runs of the graph are durable workflows, and every node's
-- run is recorded here once its workflow has planned it, so the record outlives the workflow.

CREATE TABLE transforms (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  name TEXT NOT NULL,
  description TEXT,
  sql TEXT NOT NULL,
  -- `schema.table`, lower case: where the transform writes.
  target_table TEXT NOT NULL,
  -- table, view or incremental
  materialization TEXT NOT NULL,
  -- JSON array of column names (incremental only); NULL otherwise.
  unique_key TEXT,
  -- JSON array of transform ids named explicitly.
  depends_on TEXT NOT NULL,
  -- JSON array of the `schema.table` names the SQL reads, from DuckDB's parse tree: the inferred
  -- dependencies are the transforms whose target is one of them, whenever the graph is read.
  reads TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX transforms_name ON transforms (workspace_id, name);
CREATE UNIQUE INDEX transforms_target ON transforms (workspace_id, target_table);

-- One run of a set of transforms in dependency order (a single transform's run is one of one node).
CREATE TABLE transform_dag_runs (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  -- manual, schedule or after_sync
  trigger TEXT NOT NULL,
  -- 1 for POST /transforms/{id}/run: its run record shows no dag_run_id.
  single INTEGER NOT NULL DEFAULT 0,
  -- running, succeeded, failed or cancelled
  status TEXT NOT NULL,
  -- JSON array of {transform_id, depends_on} in the order the run takes them, as planned: a restarted
  -- workflow replays this plan even if the transforms changed meanwhile.
  plan TEXT NOT NULL,
  retry_of TEXT,
  created_at TIMESTAMPTZ NOT NULL,
  finished_at TIMESTAMPTZ
);
CREATE INDEX transform_dag_runs_workspace ON transform_dag_runs (workspace_id, created_at);

CREATE TABLE transform_runs (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  transform_id TEXT NOT NULL,
  transform_name TEXT NOT NULL,
  dag_run_id TEXT NOT NULL,
  -- pending, running, succeeded, failed, skipped or cancelled
  status TEXT NOT NULL,
  trigger TEXT NOT NULL,
  rows_written BIGINT,
  -- The DuckLake snapshot the run's write made.
  snapshot_id BIGINT,
  -- The catalog snapshot the run read its inputs at: inputs changed after it make the transform stale.
  input_snapshot_id BIGINT,
  attempts INTEGER NOT NULL DEFAULT 0,
  created_at TIMESTAMPTZ NOT NULL,
  started_at TIMESTAMPTZ,
  finished_at TIMESTAMPTZ,
  duration_ms BIGINT,
  error_code TEXT,
  error_message TEXT,
  error_hint TEXT
);
CREATE INDEX transform_runs_transform ON transform_runs (transform_id, created_at);
CREATE INDEX transform_runs_dag ON transform_runs (dag_run_id);
CREATE INDEX transform_runs_workspace ON transform_runs (workspace_id);

-- A workspace's DAG schedule (a 5-field cron in UTC or `every <duration>`), kept by a Temporal Schedule.
CREATE TABLE transform_schedules (
  workspace_id TEXT PRIMARY KEY REFERENCES workspaces (id),
  schedule TEXT NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);
