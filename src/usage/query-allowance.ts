import type { PlanRow } from '../plans/plan-queries';
import { euros } from './usage-totals';

/** A calendar month's queries against the plan: what it includes, what is left, what goes beyond and what that costs. */
export interface QueryAllowance {
  queries_used: number;
  queries_included: number;
  queries_remaining: number;
  overage_queries: number;
  /** The plan's monthly price and the overage so far, in euros. */
  estimated_cost_eur: number;
}

export function allowanceOf(plan: PlanRow, queriesUsed: number): QueryAllowance {
  const overage = Math.max(0, queriesUsed - plan.included_queries);
  return {
    queries_used: queriesUsed,
    queries_included: plan.included_queries,
    queries_remaining: Math.max(0, plan.included_queries - queriesUsed),
    overage_queries: overage,
    estimated_cost_eur: euros(plan.monthly_price_eur + overage * plan.overage_price_eur),
  };
}
