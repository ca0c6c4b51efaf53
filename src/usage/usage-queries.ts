import { namedQuery } from '../store/named-query';

/** One roll-up row: a workspace's usage of one kind on one UTC day. */
export interface DailyUsageRow {
  day: string;
  source: string;
  query_count: number;
  failed_count: number;
  bytes_scanned: number;
  cpu_ms: number;
  rows_returned: number;
  cost_eur: number;
}

/** What records add to one roll-up row: `queries` of them, `failed` of which failed. */
export type DailyUsageAddition = {
  workspace_id: string;
  day: string;
  source: string;
  queries: number;
  failed: number;
  bytes_scanned: number;
  cpu_ms: number;
  rows_returned: number;
  duration_ms: number;
  cost_eur: number;
};

export const addToDailyUsage = namedQuery<DailyUsageAddition>(
  'usage_daily.add',
  `INSERT INTO usage_daily (workspace_id, day, source, query_count, failed_count, bytes_scanned, cpu_ms, rows_returned, duration_ms, cost_eur)
   VALUES (:workspace_id, :day, :source, :queries, :failed, :bytes_scanned, :cpu_ms, :rows_returned, :duration_ms, :cost_eur)
   ON CONFLICT (workspace_id, day, source) DO UPDATE SET
     query_count = usage_daily.query_count + excluded.query_count,
     failed_count = usage_daily.failed_count + excluded.failed_count,
     bytes_scanned = usage_daily.bytes_scanned + excluded.bytes_scanned,
     cpu_ms = usage_daily.cpu_ms + excluded.cpu_ms,
     rows_returned = usage_daily.rows_returned + excluded.rows_returned,
     duration_ms = usage_daily.duration_ms + excluded.duration_ms,
     cost_eur = usage_daily.cost_eur + excluded.cost_eur`,
);

// Sums are cast back to BIGINT: Postgres sums BIGINT into NUMERIC, which its driver returns as text.
const sums = `CAST(sum(query_count) AS BIGINT) AS query_count, CAST(sum(failed_count) AS BIGINT) AS failed_count,
  CAST(sum(bytes_scanned) AS BIGINT) AS bytes_scanned, CAST(sum(cpu_ms) AS BIGINT) AS cpu_ms,
  CAST(sum(rows_returned) AS BIGINT) AS rows_returned, sum(cost_eur) AS cost_eur`;

/** A period's usage by kind, from the roll-ups (days × kinds rows, whatever the number of queries). */
export const usageByKind = namedQuery<{ workspace_id: string; first_day: string; last_day: string }, Omit<DailyUsageRow, 'day'>>(
  'usage_daily.by_kind',
  `SELECT source, ${sums} FROM usage_daily
   WHERE workspace_id = :workspace_id AND day >= :first_day AND day <= :last_day
   GROUP BY source ORDER BY source`,
);

/** The roll-up rows of a period, by day and kind. */
export const dailyUsageRows = namedQuery<{ workspace_id: string; first_day: string; last_day: string }, DailyUsageRow>(
  'usage_daily.rows',
  `SELECT day, source, query_count, failed_count, bytes_scanned, cpu_ms, rows_returned, cost_eur FROM usage_daily
   WHERE workspace_id = :workspace_id AND day >= :first_day AND day <= :last_day
   ORDER BY day, source`,
);

export const deleteWorkspaceDailyUsage = namedQuery<{ workspace_id: string }>(
  'usage_daily.delete_for_workspace',
  'DELETE FROM usage_daily WHERE workspace_id = :workspace_id',
);

/** One usage record as the export writes it. */
export interface UsageRecordRow {
  id: string;
  created_at: string;
  source: string;
  status: string;
  error_code: string | null;
  user_id: string | null;
  api_key_id: string | null;
  job_id: string | null;
  statement_hash: string;
  bytes_scanned: number;
  cpu_ms: number;
  rows_returned: number;
  duration_ms: number;
  cost_eur: number;
}

/**
 * A page of a period's records in (created_at, id) order, after the last one of the previous page: the
 * export walks the workspace's time index a page at a time, so a month of records is never in memory.
 * The page starts where the index range starts (`created_at >= after`), so each page reads its own rows
 * only; the first page's `after` is the period's start, with an empty id.
 */
export const usageRecordsPage = namedQuery<{ workspace_id: string; through: string; after_at: string; after_id: string; limit: number }, UsageRecordRow>(
  'query_usage.export_page',
  `SELECT id, created_at, source, status, error_code, user_id, api_key_id, job_id, statement_hash, bytes_scanned, cpu_ms, rows_returned, duration_ms, cost_eur
   FROM query_usage
   WHERE workspace_id = :workspace_id AND created_at >= :after_at AND created_at <= :through
     AND (created_at > :after_at OR id > :after_id)
   ORDER BY created_at, id
   LIMIT :limit`,
);
