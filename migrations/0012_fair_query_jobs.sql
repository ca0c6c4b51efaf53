-- Query jobs shared fairly between workspaces. A job puts its query on the worker's task queue only once
-- its workspace has a free running slot: each plan allows a number of jobs at once per workspace
-- (max_running_jobs), and admitted_at marks the jobs that hold a slot. Priority then orders a workspace's
-- own waiting jobs, and no workspace can fill the workers' capacity with its backlog.

ALTER TABLE plans ADD COLUMN max_running_jobs INTEGER NOT NULL DEFAULT 1;

UPDATE plans SET max_running_jobs = 2 WHERE id = 'team';
UPDATE plans SET max_running_jobs = 4 WHERE id = 'business';
-- Enterprise contracts set their own; this is the starting point. A share stays below a queue's query
-- slots (QUERY_JOB_CONCURRENCY, 6 by default), so that other workspaces always find one free.
UPDATE plans SET max_running_jobs = 4 WHERE id = 'enterprise';

ALTER TABLE query_jobs ADD COLUMN admitted_at TIMESTAMPTZ;
-- Jobs open at the upgrade have their queries on the task queue already: they hold their slots.
UPDATE query_jobs SET admitted_at = submitted_at WHERE status IN ('pending', 'running');

-- The slots a workspace holds and its waiting jobs; and the open jobs the reconciliation compares with Temporal.
CREATE INDEX query_jobs_workspace_status ON query_jobs (workspace_id, status);
CREATE INDEX query_jobs_open ON query_jobs (status, submitted_at);
