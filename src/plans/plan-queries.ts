import { namedQuery } from '../store/named-query';

export interface PlanRow {
  id: string;
  name: string;
  monthly_price_eur: number;
  queries_per_minute: number;
  included_queries: number;
  storage_limit_gb: number;
  connector_limit: number | null;
  max_scan_bytes: number;
  price_per_tb_scanned_eur: number;
  time_travel_days: number;
  /** Statements of one workspace that run at once in one process. */
  max_concurrent_queries: number;
  /** Query jobs of one workspace running at once, over every worker: its share of the job capacity. */
  max_running_jobs: number;
  /** Days its query history is kept. */
  query_history_days: number;
  /** Per query beyond the included ones of a calendar month; 0: not billed. */
  overage_price_eur: number;
  /** The lookup key of the Stripe price that sells the plan, if it is sold there. */
  stripe_price_lookup_key: string | null;
}

const columns =
  'id, name, monthly_price_eur, queries_per_minute, included_queries, storage_limit_gb, connector_limit, max_scan_bytes, price_per_tb_scanned_eur, time_travel_days, max_concurrent_queries, max_running_jobs, query_history_days, overage_price_eur, stripe_price_lookup_key';

export const defaultPlanId = 'free';

export const listPlans = namedQuery<Record<never, never>, PlanRow>('plans.list', `SELECT ${columns} FROM plans ORDER BY sort_order`);

export const findWorkspacePlan = namedQuery<{ workspace_id: string }, PlanRow>(
  'plans.find_for_workspace',
  `SELECT ${columns
    .split(', ')
    .map((column) => `p.${column}`)
    .join(', ')} FROM plans p JOIN workspaces w ON w.plan_id = p.id WHERE w.id = :workspace_id AND w.deleted_at IS NULL`,
);
