import { namedQuery } from '../../store/named-query';
import type { PruneParams } from '../../housekeeping/prune';
import type { CallerType, UsageSource } from '../usage-entry';

export type HistoryStatus = 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface HistoryRow {
  id: string;
  workspace_id: string;
  kind: UsageSource;
  status: HistoryStatus;
  error_code: string | null;
  sql: string;
  translated_sql: string | null;
  caller_type: CallerType;
  caller_id: string | null;
  started_at_ms: number | string;
  duration_ms: number | string;
  rows_returned: number | string | null;
  bytes_scanned: number | string;
  cpu_ms: number | string;
  cost_eur: number;
  estimated_bytes: number | string | null;
  job_id: string | null;
}

export type HistoryValues = Omit<HistoryRow, 'started_at_ms' | 'duration_ms' | 'rows_returned' | 'bytes_scanned' | 'cpu_ms' | 'estimated_bytes'> & {
  started_at_ms: number;
  duration_ms: number;
  rows_returned: number | null;
  bytes_scanned: number;
  cpu_ms: number;
  estimated_bytes: number | null;
};

const columns =
  'id, workspace_id, kind, status, error_code, sql, translated_sql, caller_type, caller_id, started_at_ms, duration_ms, rows_returned, bytes_scanned, cpu_ms, cost_eur, estimated_bytes, job_id';
const values = columns
  .split(', ')
  .map((column) => `:${column}`)
  .join(', ');

/**
 * A statement's entry: written when it ends, or when a job's query starts (`running`) and again when
 * it ends. A retried attempt rewrites the same entry (its id is the job's, run's or sync's own).
 */
export const upsertHistoryEntry = namedQuery<HistoryValues>(
  'query_history.upsert',
  `INSERT INTO query_history (${columns}) VALUES (${values})
   ON CONFLICT (id) DO UPDATE SET status = excluded.status, error_code = excluded.error_code,
     translated_sql = COALESCE(excluded.translated_sql, query_history.translated_sql), duration_ms = excluded.duration_ms,
     rows_returned = excluded.rows_returned, bytes_scanned = excluded.bytes_scanned, cpu_ms = excluded.cpu_ms, cost_eur = excluded.cost_eur,
     estimated_bytes = COALESCE(excluded.estimated_bytes, query_history.estimated_bytes)`,
);

/** A job's entry as its query starts; an attempt that starts again leaves the entry as it is. */
export const insertRunningEntry = namedQuery<HistoryValues>(
  'query_history.insert_running',
  `INSERT INTO query_history (${columns}) VALUES (${values}) ON CONFLICT (id) DO NOTHING`,
);

/**
 * A job's entry still `running` when the job ended without its query recording it (cancelled while
 * its worker was gone, terminated in Temporal, every attempt failed): it ends as the job did.
 */
export const endRunningEntry = namedQuery<{ id: string; status: HistoryStatus; error_code: string | null; now_ms: number }>(
  'query_history.end_running',
  `UPDATE query_history SET status = :status, error_code = :error_code, duration_ms = CAST(:now_ms AS BIGINT) - started_at_ms
   WHERE id = :id AND status = 'running'`,
);

export type HistoryFilter = {
  workspace_id: string;
  kind: UsageSource | null;
  status: HistoryStatus | null;
  caller_id: string | null;
  since_ms: number | null;
  until_ms: number | null;
};

// Each filter applies when given; the casts tell Postgres the type of a parameter that may be null.
const filtered = `FROM query_history WHERE workspace_id = :workspace_id
  AND (CAST(:kind AS TEXT) IS NULL OR kind = :kind) AND (CAST(:status AS TEXT) IS NULL OR status = :status)
  AND (CAST(:caller_id AS TEXT) IS NULL OR caller_id = :caller_id)
  AND (CAST(:since_ms AS BIGINT) IS NULL OR started_at_ms >= :since_ms) AND (CAST(:until_ms AS BIGINT) IS NULL OR started_at_ms < :until_ms)`;

export const listHistory = namedQuery<HistoryFilter & { limit: number; offset: number }, HistoryRow>(
  'query_history.list',
  `SELECT ${columns} ${filtered} ORDER BY started_at_ms DESC, id DESC LIMIT :limit OFFSET :offset`,
);

export const countHistory = namedQuery<HistoryFilter, { total: number | string }>('query_history.count', `SELECT count(*) AS total ${filtered}`);

export const deleteWorkspaceHistory = namedQuery<{ workspace_id: string }>(
  'query_history.delete_for_workspace',
  'DELETE FROM query_history WHERE workspace_id = :workspace_id',
);

/** Entries older than their workspace's plan keeps them (`query_history_days`); a deleted workspace's go with its purge. */
export const pruneHistory = namedQuery<PruneParams, never>(
  'query_history.prune',
  `DELETE FROM query_history WHERE started_at_ms < CAST(:now_ms AS BIGINT) - CAST(86400000 AS BIGINT) * COALESCE(
     (SELECT p.query_history_days FROM workspaces w JOIN plans p ON p.id = w.plan_id WHERE w.id = query_history.workspace_id), 7)`,
);
