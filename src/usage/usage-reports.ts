import type { Queryable } from '../store/store';
import type { Clock } from '../util/clock';
import { workspacePlan } from '../plans/workspace-plan';
import { allowanceOf } from './query-allowance';
import { dailyUsageRows, usageByKind, type DailyUsageRow } from './usage-queries';
import { totalsOf, type UsageTotals } from './usage-totals';
import { addDays, dayOf, daysBetween, monthOf, monthPeriod, trailingPeriod, type DateBounds, type DayRange } from './usage-period';

export type UsageSummary = UsageTotals & { period_start: string; period_end: string };
export type DailyUsage = UsageTotals & { date: string };

export interface CurrentPeriodUsage extends UsageTotals {
  plan: string;
  period_start: string;
  period_end: string;
  days_elapsed: number;
  days_in_period: number;
  queries_included: number;
  queries_remaining: number;
  overage_queries: number;
  estimated_cost_eur: number;
}

/** The daily list's default span. */
const defaultDailyDays = 30;

/**
 * A workspace's usage over a period, read from the daily roll-ups: a summary of any period (a calendar
 * month by default), one row per day (the last 30 by default, zeros on quiet days), and the current
 * billing period, which is the calendar month (UTC).
 */
export class UsageReports {
  constructor(
    private readonly db: Queryable,
    private readonly clock: Clock,
    /** Writes the records of the queries answered so far that wait to be written (see UsageBatches). */
    private readonly recorded: () => Promise<void>,
  ) {}

  today(): string {
    return dayOf(this.clock.now());
  }

  async summary(workspaceId: string, bounds: DateBounds): Promise<UsageSummary> {
    const period = monthPeriod(bounds, this.today());
    return { ...(await this.totals(workspaceId, period)), period_start: period.first, period_end: period.last };
  }

  async daily(workspaceId: string, bounds: DateBounds): Promise<DailyUsage[]> {
    const period = trailingPeriod(bounds, this.today(), defaultDailyDays);
    await this.recorded();
    const rows = await this.db.all(dailyUsageRows, { workspace_id: workspaceId, first_day: period.first, last_day: period.last });
    const byDay = new Map<string, DailyUsageRow[]>();
    for (const row of rows) {
      const day = byDay.get(row.day) ?? [];
      day.push(row);
      byDay.set(row.day, day);
    }
    return Array.from({ length: daysBetween(period) }, (_, index) => {
      const date = addDays(period.first, index);
      return { date, ...totalsOf(byDay.get(date) ?? []) };
    });
  }

  async current(workspaceId: string): Promise<CurrentPeriodUsage> {
    const today = this.today();
    const period = monthOf(today);
    const [plan, totals] = await Promise.all([workspacePlan(this.db, workspaceId), this.totals(workspaceId, period)]);
    const allowance = allowanceOf(plan, totals.query_count);
    return {
      plan: plan.id,
      period_start: period.first,
      period_end: period.last,
      days_elapsed: daysBetween({ first: period.first, last: today }),
      days_in_period: daysBetween(period),
      ...totals,
      queries_included: allowance.queries_included,
      queries_remaining: allowance.queries_remaining,
      overage_queries: allowance.overage_queries,
      estimated_cost_eur: allowance.estimated_cost_eur,
    };
  }

  async totals(workspaceId: string, period: DayRange): Promise<UsageTotals> {
    await this.recorded();
    return totalsOf(await this.db.all(usageByKind, { workspace_id: workspaceId, first_day: period.first, last_day: period.last }));
  }
}
