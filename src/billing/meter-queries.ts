import { namedQuery } from '../store/named-query';
import { engineWorkKindList } from '../usage/usage-kinds';

/** Workspaces whose subscription is billed now: the ones whose overage is reported. */
export const billedCustomers = namedQuery<Record<never, never>, { workspace_id: string; customer_id: string }>(
  'meter.billed_customers',
  `SELECT b.workspace_id, b.customer_id FROM workspace_billing b JOIN workspaces w ON w.id = b.workspace_id
   WHERE w.deleted_at IS NULL AND b.customer_id IS NOT NULL AND b.provider_status IN ('active', 'trialing', 'past_due')
   ORDER BY b.workspace_id`,
);

/** A month's queries (every kind but engine work), from the roll-ups. */
export const monthQueries = namedQuery<{ workspace_id: string; first_day: string; last_day: string }, { queries: number }>(
  'meter.month_queries',
  `SELECT CAST(coalesce(sum(query_count), 0) AS BIGINT) AS queries FROM usage_daily
   WHERE workspace_id = :workspace_id AND day >= :first_day AND day <= :last_day AND source NOT IN (${engineWorkKindList})`,
);

export const reportedCount = namedQuery<{ workspace_id: string; period_start: string }, { reported: number }>(
  'meter.reported_count',
  'SELECT count(*) AS reported FROM usage_meter_reports WHERE workspace_id = :workspace_id AND period_start = :period_start',
);

/**
 * The newest queries of a month not reported yet. Which queries are the overage ones does not matter
 * to the bill, only how many; each is reported under its own id, once.
 */
export const unreportedQueries = namedQuery<{ workspace_id: string; from: string; through: string; limit: number }, { id: string; created_at: string }>(
  'meter.unreported_queries',
  `SELECT u.id, u.created_at FROM query_usage u
   WHERE u.workspace_id = :workspace_id AND u.created_at >= :from AND u.created_at <= :through AND u.source NOT IN (${engineWorkKindList})
     AND NOT EXISTS (SELECT 1 FROM usage_meter_reports r WHERE r.usage_id = u.id)
   ORDER BY u.created_at DESC, u.id DESC
   LIMIT :limit`,
);

export const recordMeterReport = namedQuery<{
  usage_id: string;
  workspace_id: string;
  period_start: string;
  customer_id: string;
  outcome: string;
  now: string;
}>(
  'meter.record_report',
  `INSERT INTO usage_meter_reports (usage_id, workspace_id, period_start, customer_id, outcome, reported_at)
   VALUES (:usage_id, :workspace_id, :period_start, :customer_id, :outcome, :now)
   ON CONFLICT (usage_id) DO NOTHING`,
);

export const deleteWorkspaceMeterReports = namedQuery<{ workspace_id: string }>(
  'meter.delete_for_workspace',
  'DELETE FROM usage_meter_reports WHERE workspace_id = :workspace_id',
);
