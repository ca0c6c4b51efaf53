import { t } from 'elysia';
import { documentedAs } from '../openapi/documented-schema';

const day = (description: string) => t.String({ format: 'date', description });
/** A date parameter: checked (and a 422 naming it) by the usage period rules, documented as a date. */
const dateParameter = (description: string) => documentedAs(t.String(), { type: 'string', format: 'date', description });

const UsageByKind = t.Object(
  {
    kind: t.String({ description: 'execute, query, job, saved_query, chart, or the engine work of sync and transform' }),
    count: t.Integer({ description: 'Usage records of this kind (queries, or runs of engine work)' }),
    failed_count: t.Integer(),
    bytes_scanned: t.Integer(),
    cpu_ms: t.Integer(),
    rows_returned: t.Integer(),
    cost_eur: t.Number(),
  },
  { description: "One kind's share of the period's usage" },
);

const totals = {
  query_count: t.Integer({ description: 'Queries of every kind but the engine work of syncs and transforms, failed ones included' }),
  failed_query_count: t.Integer(),
  total_bytes_scanned: t.Integer({ description: 'Every kind' }),
  total_bytes_scanned_gb: t.Number({ description: 'total_bytes_scanned in GB (10^9 bytes)' }),
  total_cpu_ms: t.Integer({ description: 'Every kind' }),
  total_rows_returned: t.Integer({ description: 'Every kind' }),
  total_cost_eur: t.Number({ description: 'What the scans cost at the plan’s price per TB' }),
  by_kind: t.Array(UsageByKind),
};

export const usageModels = {
  UsageByKind,
  UsageSummaryResponse: t.Object({ ...totals, period_start: day('First day (UTC)'), period_end: day('Last day (UTC), included') }),
  DailyUsageResponse: t.Object({ date: day('The UTC day'), ...totals }, { description: 'One day of usage; a day without any has zeros' }),
  CurrentPeriodUsageResponse: t.Object({
    plan: t.String(),
    period_start: day('First day of the calendar month (UTC)'),
    period_end: day('Last day of the calendar month'),
    days_elapsed: t.Integer(),
    days_in_period: t.Integer(),
    ...totals,
    queries_included: t.Integer(),
    queries_remaining: t.Integer(),
    overage_queries: t.Integer(),
    estimated_cost_eur: t.Number({ description: "The plan's monthly price and the overage so far" }),
  }),
  UsageDashboardResponse: t.Object({
    plan_tier: t.String({ description: 'The plan: free, team, business or enterprise' }),
    plan_name: t.String(),
    plan_price: t.Number({ description: 'Monthly price, EUR' }),
    overage_price: t.Number({ description: 'Per query beyond the included ones, EUR' }),
    queries_used: t.Integer(),
    queries_included: t.Integer(),
    queries_remaining: t.Integer(),
    overage_queries: t.Integer(),
    storage_used_bytes: t.Integer({ description: "The lake's files as its catalog lists them, time travel's included" }),
    storage_used_gb: t.Number(),
    storage_limit_gb: t.Number(),
    storage_remaining_gb: t.Number(),
    connectors_used: t.Integer(),
    connectors_limit: t.Nullable(t.Integer(), { description: 'null: no limit' }),
    max_running_jobs: t.Integer({ description: 'Query jobs that run at once; more wait their turn, highest priority first' }),
    query_history_days: t.Integer({ description: 'Days the query history is kept' }),
    estimated_cost_mtd: t.Number({ description: 'Month to date: the monthly price and the overage so far, EUR' }),
    period_start: day('First day of the calendar month (UTC)'),
    period_end: day('Last day of the calendar month'),
  }),
  UsageRecord: t.Object(
    {
      id: t.String(),
      created_at: t.String({ format: 'date-time' }),
      kind: t.String(),
      status: t.String({ description: 'succeeded, failed or cancelled (billed for what it ran)' }),
      error_code: t.Nullable(t.String()),
      user_id: t.Nullable(t.String()),
      api_key_id: t.Nullable(t.String()),
      job_id: t.Nullable(t.String()),
      statement_hash: t.String({ description: 'SHA-256 of the statement, whitespace runs collapsed' }),
      bytes_scanned: t.Integer(),
      cpu_ms: t.Integer(),
      rows_returned: t.Integer(),
      duration_ms: t.Integer(),
      cost_eur: t.Number(),
    },
    { description: 'One usage record, as the export writes it' },
  ),
};

export const usageParams = t.Object({ workspace_id: t.String({ format: 'uuid' }) });

export const periodQuery = {
  start_date: t.Optional(dateParameter('YYYY-MM-DD (UTC), the first day included')),
  end_date: t.Optional(dateParameter('YYYY-MM-DD (UTC), the last day included')),
};

export const ExportFormat = t.Union([t.Literal('csv'), t.Literal('json')], {
  description: 'csv (default): a header row, then one line per record; json: an array of records',
});
