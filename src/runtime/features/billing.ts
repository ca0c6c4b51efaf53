import { createBillingActivities } from '../../activities/billing-activities';
import { BillingAccounts } from '../../billing/billing-accounts';
import type { BillingProvider } from '../../billing/billing-provider';
import { deleteWorkspaceBilling, deleteWorkspaceBillingEvents } from '../../billing/billing-queries';
import { BillingWebhooks } from '../../billing/billing-webhooks';
import { deleteWorkspaceMeterReports } from '../../billing/meter-queries';
import { OverageReporter } from '../../billing/overage-reporter';
import { StripeProvider } from '../../billing/stripe-provider';
import { MeterReportClient, meterReportSchedule } from '../../workflow-clients/meter-report';
import type { FeatureWiring } from '../feature';
import type { FeatureDeps } from './deps';

export interface BillingServices {
  accounts: BillingAccounts;
  webhooks: BillingWebhooks;
  meterReports: MeterReportClient;
}

/**
 * Billing through Stripe (when STRIPE_SECRET_KEY is set): each workspace's customer, portal sessions,
 * the webhook that moves plans with subscriptions, and the schedule that reports overage.
 */
export function billingFeature({ config, infra, logger, clock }: FeatureDeps) {
  const log = logger.child({ component: 'billing' });
  const { stripeSecretKey, stripeWebhookSecret, stripeApiBase, meterEventName, meterReportEvery } = config.billing;
  const provider: BillingProvider | undefined = stripeSecretKey
    ? new StripeProvider({ secretKey: stripeSecretKey, apiBase: stripeApiBase, meterEventName }, log)
    : undefined;
  const accounts = new BillingAccounts(infra.store, clock, provider, config.http.frontendUrl);
  const billing: BillingServices = {
    accounts,
    webhooks: new BillingWebhooks(infra.store, clock, stripeWebhookSecret, log, (workspaceId) => infra.notices.publish({ kind: 'plan_changed', workspaceId })),
    meterReports: new MeterReportClient(infra.temporal),
  };
  const wiring = {
    activities: createBillingActivities({ reporter: new OverageReporter(infra.store, clock, provider, log) }),
    schedules: [meterReportSchedule(meterReportEvery)],
    workspacePurge: {
      // A deleted workspace is billed no longer: its subscription ends before its rows go.
      stopDurableWork: (workspaceId: string) => accounts.endSubscription(workspaceId, log),
      rows: [deleteWorkspaceBilling, deleteWorkspaceBillingEvents, deleteWorkspaceMeterReports],
    },
  } satisfies FeatureWiring;
  return { billing, wiring };
}
