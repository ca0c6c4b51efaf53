import { Context } from '@temporalio/activity';
import type { OverageReport, OverageReporter } from '../billing/overage-reporter';

export interface BillingActivityDeps {
  reporter: OverageReporter;
}

export function createBillingActivities(deps: BillingActivityDeps) {
  return {
    /** Heartbeats after every event sent; a cancellation stops it between events (what was sent is recorded). */
    async reportUsageOverage(): Promise<OverageReport> {
      const context = Context.current();
      return deps.reporter.reportAll({ progress: () => context.heartbeat(), stopped: () => context.cancellationSignal.aborted });
    },
  };
}

export type BillingActivities = ReturnType<typeof createBillingActivities>;
