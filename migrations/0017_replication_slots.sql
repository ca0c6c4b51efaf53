-- A Postgres connection that replicates logically owns one publication and one replication slot on its
-- source. The service remembers the slot it made (its consistent point): a slot made anew (dropped on
-- the source, or its WAL lost) means the changes in between are unknown, so each stream records the
-- slot its last full read belongs to, and reads the table again when the slot is not that one.
CREATE TABLE replication_slots (
  connection_id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  slot_name TEXT NOT NULL,
  publication_name TEXT NOT NULL,
  -- The LSN the slot was created at (its consistent point), as Postgres writes it.
  created_lsn TEXT NOT NULL,
  -- JSON object: stream → the created_lsn of the slot its last full read was made under.
  snapshots TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX replication_slots_workspace ON replication_slots (workspace_id);
