-- Saved queries, charts and pages of a workspace, and their public links. Each is known by its name
-- within its workspace (what the interface's paths carry); a chart reads either its own SQL or a saved
-- query, a page lays out charts and markdown. A public link is stored as the SHA-256 of its token only,
-- like API keys: the token itself is shown once, when it is published.

CREATE TABLE saved_queries (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  name TEXT NOT NULL,
  description TEXT,
  sql TEXT NOT NULL,
  -- JSON array of {name, type, default?, required?, options?}
  parameters TEXT NOT NULL,
  created_by TEXT,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX saved_queries_name ON saved_queries (workspace_id, name);

CREATE TABLE charts (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  name TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  -- Exactly one of the two: the chart's own SQL, or the name of a saved query of the workspace.
  sql TEXT,
  saved_query TEXT,
  -- JSON object: values of the saved query's parameters
  parameters TEXT NOT NULL,
  chart_type TEXT NOT NULL,
  -- JSON object: {x?, y?, series?, stacked?, columns?}
  config TEXT NOT NULL,
  created_by TEXT,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX charts_name ON charts (workspace_id, name);
CREATE INDEX charts_saved_query ON charts (workspace_id, saved_query);

CREATE TABLE pages (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  name TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  -- JSON array of {chart} and {markdown} blocks, in page order
  blocks TEXT NOT NULL,
  created_by TEXT,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX pages_name ON pages (workspace_id, name);

-- One public link per chart or page at most: publishing again replaces the row (a new token, the old
-- one dead at once), unpublishing deletes it.
CREATE TABLE publications (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  -- chart or page
  kind TEXT NOT NULL,
  object_id TEXT NOT NULL,
  token_hash TEXT NOT NULL,
  -- JSON object: parameter values locked for every viewer
  parameters TEXT NOT NULL,
  expires_at TIMESTAMPTZ,
  published_at TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX publications_object ON publications (kind, object_id);
CREATE UNIQUE INDEX publications_token ON publications (token_hash);
CREATE INDEX publications_workspace ON publications (workspace_id);
