import type { Queryable } from '../store/store';
import { workspacePlan } from '../plans/workspace-plan';
import type { ConnectorQuota } from './connector-quota';
import { allowanceOf } from './query-allowance';
import type { UsageReports } from './usage-reports';
import { gb, type StorageQuota } from './storage-quota';
import { monthOf } from './usage-period';

export interface UsageDashboard {
  plan_tier: string;
  plan_name: string;
  plan_price: number;
  overage_price: number;
  queries_used: number;
  queries_included: number;
  queries_remaining: number;
  overage_queries: number;
  storage_used_bytes: number;
  storage_used_gb: number;
  storage_limit_gb: number;
  storage_remaining_gb: number;
  connectors_used: number;
  connectors_limit: number | null;
  /** Query jobs of the workspace that run at once (its share of the job capacity); more wait their turn. */
  max_running_jobs: number;
  query_history_days: number;
  estimated_cost_mtd: number;
  period_start: string;
  period_end: string;
}

/**
 * The month so far at a glance: queries against the plan (from the roll-ups), storage from the lake
 * catalog's file sizes, connectors against the plan's limit, and what the month costs so far.
 */
export class UsageDashboards {
  constructor(
    private readonly db: Queryable,
    private readonly reports: UsageReports,
    private readonly storage: StorageQuota,
    private readonly connectors: ConnectorQuota,
  ) {}

  async dashboard(workspaceId: string): Promise<UsageDashboard> {
    const period = monthOf(this.reports.today());
    const plan = await workspacePlan(this.db, workspaceId);
    const [totals, storage, connectorsUsed] = await Promise.all([
      this.reports.totals(workspaceId, period),
      this.storage.use(workspaceId, 'interactive', plan),
      this.connectors.used(workspaceId),
    ]);
    const allowance = allowanceOf(plan, totals.query_count);
    const usedGb = gb(storage.usedBytes);
    return {
      plan_tier: plan.id,
      plan_name: plan.name,
      plan_price: plan.monthly_price_eur,
      overage_price: plan.overage_price_eur,
      queries_used: allowance.queries_used,
      queries_included: allowance.queries_included,
      queries_remaining: allowance.queries_remaining,
      overage_queries: allowance.overage_queries,
      storage_used_bytes: storage.usedBytes,
      storage_used_gb: usedGb,
      storage_limit_gb: plan.storage_limit_gb,
      storage_remaining_gb: Math.max(0, plan.storage_limit_gb - usedGb),
      connectors_used: connectorsUsed,
      connectors_limit: plan.connector_limit,
      max_running_jobs: plan.max_running_jobs,
      query_history_days: plan.query_history_days,
      estimated_cost_mtd: allowance.estimated_cost_eur,
      period_start: period.first,
      period_end: period.last,
    };
  }
}
