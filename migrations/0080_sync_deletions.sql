-- Records deleted at the source reach the lake (HubSpot's archived records, Salesforce's recycle bin,
-- Postgres' logical replication): each connection says whether a deleted record's row is deleted or
-- kept with `_deleted_at` set. A stream the credentials cannot read is skipped rather than failed, and
-- its sync state says why.
ALTER TABLE connections ADD COLUMN deletion_mode TEXT NOT NULL DEFAULT 'delete';
ALTER TABLE sync_states ADD COLUMN reason TEXT;
