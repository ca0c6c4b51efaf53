-- API replicas and workers that share one Postgres find each other here: each live process has a row,
-- renewed every second, and holds a session advisory lock for as long as it runs, so a process that
-- dies (even by SIGKILL) drops out of the live set as soon as Postgres closes its session. Workspaces
-- are placed on the live members by rendezvous hashing (src/cluster/README.md). The embedded SQLite
-- deployment is one process and never writes here; the table exists on both backends all the same.
CREATE TABLE cluster_members (
  id TEXT PRIMARY KEY,
  -- 'api' (serves requests, owns workspaces' interactive engines) or 'worker' (runs durable work).
  role TEXT NOT NULL,
  -- Where other replicas forward a request to (http://host:port); NULL for workers.
  address TEXT,
  -- The Postgres backend that holds the member's session lock: gone, the member is gone.
  session_pid BIGINT NOT NULL,
  started_at TIMESTAMPTZ NOT NULL,
  -- The lease: a member that stopped renewing it (a stalled or partitioned host) is dropped after it.
  expires_at TIMESTAMPTZ NOT NULL
);
