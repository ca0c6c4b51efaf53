-- A provider that rotates refresh tokens accepts each one once: two processes refreshing the same
-- connection at once would leave it with a dead token. A refresh takes a lease on the token's row
-- first (a conditional UPDATE: one writer wins on SQLite and on Postgres alike), held while the
-- provider answers, then reads the token again: whoever waited finds it refreshed.
ALTER TABLE oauth_tokens ADD COLUMN refresh_lease_owner TEXT;
ALTER TABLE oauth_tokens ADD COLUMN refresh_lease_until TIMESTAMPTZ;
