-- What the lake catalog does not keep itself: the primary key a table was pushed with (later pushes
-- must use the same one), and the idempotency keys of writes (a retried request returns the first
-- answer instead of writing twice).

CREATE TABLE lake_tables (
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  schema_name TEXT NOT NULL,
  table_name TEXT NOT NULL,
  -- JSON array of column names; NULL for a table without a key.
  primary_key TEXT,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (workspace_id, schema_name, table_name)
);

CREATE TABLE idempotency_keys (
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  scope TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  -- in_progress, then completed with the response kept for replays.
  status TEXT NOT NULL,
  response TEXT,
  created_at TIMESTAMPTZ NOT NULL,
  completed_at TIMESTAMPTZ,
  PRIMARY KEY (workspace_id, scope, idempotency_key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
