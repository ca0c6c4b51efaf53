import type { ResultFormat } from '../query/formats/encoded-result';
import { namedQuery } from '../store/named-query';

export type JobStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface JobRow {
  id: string;
  workspace_id: string;
  user_id: string;
  sql: string;
  priority: number;
  force_scan: number;
  result_format: ResultFormat;
  status: JobStatus;
  request_hash: string;
  submitted_at: string;
  started_at: string | null;
  finished_at: string | null;
  attempts: number;
  /** Set once the job holds one of its workspace's running slots (see JobSlots). */
  admitted_at: string | null;
  error_code: string | null;
  error_message: string | null;
  error_hint: string | null;
  columns: string | null;
  row_count: number | null;
  bytes_scanned: number | null;
  cpu_ms: number | null;
  cost_eur: number | null;
  result_key: string | null;
  result_expires_at: string | null;
  result_deleted_at: string | null;
}

export const insertJob = namedQuery<
  Pick<JobRow, 'id' | 'workspace_id' | 'user_id' | 'sql' | 'priority' | 'force_scan' | 'result_format' | 'request_hash'> & {
    idempotency_key: string | null;
    now: string;
  }
>(
  'query_jobs.insert',
  `INSERT INTO query_jobs (id, workspace_id, user_id, sql, priority, force_scan, result_format, status, idempotency_key, request_hash, submitted_at)
   VALUES (:id, :workspace_id, :user_id, :sql, :priority, :force_scan, :result_format, 'pending', :idempotency_key, :request_hash, :now)`,
);

export const findJob = namedQuery<{ id: string }, JobRow>('query_jobs.find', 'SELECT * FROM query_jobs WHERE id = :id');

export const findJobByIdempotencyKey = namedQuery<{ workspace_id: string; user_id: string; key: string }, JobRow>(
  'query_jobs.find_by_idempotency_key',
  'SELECT * FROM query_jobs WHERE workspace_id = :workspace_id AND user_id = :user_id AND idempotency_key = :key',
);

/**
 * The running query claims its admitted job: a pending job (or one whose earlier attempt died while
 * running) becomes running. A cancelled job cannot be claimed: the cancel and the start race on this row.
 */
export const claimJob = namedQuery<{ id: string; now: string }>(
  'query_jobs.claim',
  `UPDATE query_jobs SET status = 'running', started_at = COALESCE(started_at, :now), attempts = attempts + 1
   WHERE id = :id AND status IN ('pending', 'running') AND admitted_at IS NOT NULL`,
);

export const cancelPendingJob = namedQuery<{ id: string; now: string }>(
  'query_jobs.cancel_pending',
  "UPDATE query_jobs SET status = 'cancelled', finished_at = :now WHERE id = :id AND status = 'pending'",
);

/** A pending or running job cancelled; one that has ended stays as it ended. */
export const cancelOpenJob = namedQuery<{ id: string; now: string }>(
  'query_jobs.cancel_open',
  "UPDATE query_jobs SET status = 'cancelled', finished_at = :now WHERE id = :id AND status IN ('pending', 'running')",
);

/** The running slots a workspace's jobs hold: admitted and not ended. */
export const countHeldSlots = namedQuery<{ workspace_id: string }, { held: number | string }>(
  'query_jobs.count_held_slots',
  "SELECT count(*) AS held FROM query_jobs WHERE workspace_id = :workspace_id AND status IN ('pending', 'running') AND admitted_at IS NOT NULL",
);

/** A workspace's waiting jobs in the order they get slots: highest priority first, then first submitted. */
export const listWaitingJobs = namedQuery<{ workspace_id: string; limit: number }, { id: string }>(
  'query_jobs.list_waiting',
  `SELECT id FROM query_jobs WHERE workspace_id = :workspace_id AND status = 'pending' AND admitted_at IS NULL
   ORDER BY priority DESC, submitted_at, id LIMIT :limit`,
);

export const admitJob = namedQuery<{ id: string; now: string }>(
  'query_jobs.admit',
  "UPDATE query_jobs SET admitted_at = :now WHERE id = :id AND status = 'pending' AND admitted_at IS NULL",
);

/** Jobs not ended, oldest first: what the reconciliation compares with their workflows. */
export const listOpenJobs = namedQuery<{ submitted_before: string; limit: number }, JobRow>(
  'query_jobs.list_open',
  "SELECT * FROM query_jobs WHERE status IN ('pending', 'running') AND submitted_at < :submitted_before ORDER BY submitted_at LIMIT :limit",
);

type JobFilter = { workspace_id: string; status: string | null };

export const listJobs = namedQuery<JobFilter & { limit: number; offset: number }, JobRow>(
  'query_jobs.list',
  `SELECT * FROM query_jobs WHERE workspace_id = :workspace_id AND (CAST(:status AS TEXT) IS NULL OR status = :status)
   ORDER BY submitted_at DESC, id DESC LIMIT :limit OFFSET :offset`,
);

export const countJobs = namedQuery<JobFilter, { total: number | string }>(
  'query_jobs.count',
  'SELECT count(*) AS total FROM query_jobs WHERE workspace_id = :workspace_id AND (CAST(:status AS TEXT) IS NULL OR status = :status)',
);

export const completeJob = namedQuery<{
  id: string;
  now: string;
  columns: string;
  row_count: number;
  bytes_scanned: number;
  cpu_ms: number;
  cost_eur: number;
  result_key: string;
  result_expires_at: string;
}>(
  'query_jobs.complete',
  `UPDATE query_jobs SET status = 'succeeded', finished_at = :now, columns = :columns, row_count = :row_count, bytes_scanned = :bytes_scanned,
     cpu_ms = :cpu_ms, cost_eur = :cost_eur, result_key = :result_key, result_expires_at = :result_expires_at
   WHERE id = :id AND status = 'running'`,
);

export const failJob = namedQuery<{ id: string; now: string; code: string; message: string; hint: string | null }>(
  'query_jobs.fail',
  `UPDATE query_jobs SET status = 'failed', finished_at = :now, error_code = :code, error_message = :message, error_hint = :hint
   WHERE id = :id AND status IN ('pending', 'running')`,
);

export const listExpiredResults = namedQuery<{ now: string; limit: number }, { id: string; workspace_id: string; result_key: string }>(
  'query_jobs.list_expired_results',
  `SELECT id, workspace_id, result_key FROM query_jobs
   WHERE result_key IS NOT NULL AND result_deleted_at IS NULL AND result_expires_at < :now ORDER BY result_expires_at LIMIT :limit`,
);

export const markResultDeleted = namedQuery<{ id: string; now: string }>(
  'query_jobs.mark_result_deleted',
  'UPDATE query_jobs SET result_deleted_at = :now WHERE id = :id',
);

export const deleteWorkspaceJobs = namedQuery<{ workspace_id: string }>(
  'query_jobs.delete_for_workspace',
  'DELETE FROM query_jobs WHERE workspace_id = :workspace_id',
);
