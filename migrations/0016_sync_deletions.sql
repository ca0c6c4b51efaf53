-- Records deleted at the source reach the lake (HubSpot's archived records, Salesforce's recycle bin,
-- Postgres' logical replication): each connection says whether a deleted record's row is deleted or
-- kept with `_deleted_at` set. Where the source cannot tell, a connection may compare keys every so
-- often (a duration; NULL: never), and each stream's state remembers when it last did. A stream the
-- credentials cannot read is skipped rather than failed, and its sync state says why.
ALTER TABLE connections ADD COLUMN deletion_mode TEXT NOT NULL DEFAULT 'delete';
ALTER TABLE connections ADD COLUMN key_comparison_every TEXT;
ALTER TABLE sync_states ADD COLUMN reason TEXT;
ALTER TABLE sync_states ADD COLUMN keys_compared_at TIMESTAMPTZ;
