-- How many statements of one workspace run at once in one process (queries, pushes). Beyond it, its
-- statements wait their turn, so one tenant's long queries cannot take the engine from the others.

ALTER TABLE plans ADD COLUMN max_concurrent_queries INTEGER NOT NULL DEFAULT 2;

UPDATE plans SET max_concurrent_queries = 4 WHERE id = 'team';
UPDATE plans SET max_concurrent_queries = 6 WHERE id = 'business';
