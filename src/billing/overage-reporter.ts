import type { Logger } from '../logging/logger';
import { workspacePlan } from '../plans/workspace-plan';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import { addDays, dayOf, instantsOf, monthOf, type DayRange } from '../usage/usage-period';
import type { BillingProvider } from './billing-provider';
import { billedCustomers, monthQueries, recordMeterReport, reportedCount, unreportedQueries } from './meter-queries';

export interface OverageReport {
  workspaces: number;
  sent: number;
  rejected: number;
}

export interface ReportControl {
  /** Called after every event sent: a long run shows it is alive. */
  progress(): void;
  /** Asked between events: true once the run should stop (it resumes where it stopped next time). */
  stopped(): boolean;
}

/** Queries reported per workspace and month in one run; the next run takes the rest. */
const batchSize = 1_000;

/**
 * Reports each billed workspace's overage to the provider as meter events, one per query beyond the
 * plan's included queries of the calendar month, identified by the usage record's id (a resend is a
 * no-op at the provider) and recorded once sent, so a run that dies midway sends nothing twice. The
 * previous month is looked at too, for the queries of its last minutes.
 */
export class OverageReporter {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly provider: BillingProvider | undefined,
    private readonly logger: Logger,
  ) {}

  async reportAll(control: ReportControl): Promise<OverageReport> {
    const report: OverageReport = { workspaces: 0, sent: 0, rejected: 0 };
    if (!this.provider) return report;
    const thisMonth = monthOf(dayOf(this.clock.now()));
    const months = [monthOf(addDays(thisMonth.first, -1)), thisMonth];
    for (const { workspace_id, customer_id } of await this.store.all(billedCustomers, {})) {
      const plan = await workspacePlan(this.store, workspace_id);
      if (plan.overage_price_eur <= 0) continue;
      report.workspaces += 1;
      for (const month of months) {
        if (control.stopped()) return report;
        await this.reportMonth(this.provider, { workspaceId: workspace_id, customerId: customer_id, included: plan.included_queries }, month, report, control);
      }
    }
    if (report.sent + report.rejected > 0) this.logger.info('overage reported', { ...report });
    return report;
  }

  private async reportMonth(
    provider: BillingProvider,
    account: { workspaceId: string; customerId: string; included: number },
    month: DayRange,
    report: OverageReport,
    control: ReportControl,
  ) {
    const period = { workspace_id: account.workspaceId, first_day: month.first, last_day: month.last };
    const used = (await this.store.first(monthQueries, period))?.queries ?? 0;
    const reported = (await this.store.first(reportedCount, { workspace_id: account.workspaceId, period_start: month.first }))?.reported ?? 0;
    const due = Math.min(batchSize, Math.max(0, used - account.included) - reported);
    if (due <= 0) return;
    const queries = await this.store.all(unreportedQueries, { workspace_id: account.workspaceId, ...instantsOf(month), limit: due });
    for (const query of queries) {
      if (control.stopped()) return;
      const outcome = await provider.sendMeterEvent({
        identifier: query.id,
        customerId: account.customerId,
        timestamp: Math.floor(Date.parse(query.created_at) / 1000),
      });
      await this.store.run(recordMeterReport, {
        usage_id: query.id,
        workspace_id: account.workspaceId,
        period_start: month.first,
        customer_id: account.customerId,
        outcome: outcome === 'sent' ? 'reported' : 'rejected',
        now: this.clock.now().toISOString(),
      });
      report[outcome === 'sent' ? 'sent' : 'rejected'] += 1;
      control.progress();
    }
  }
}
