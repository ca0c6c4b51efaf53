import { AppError, RequestValidationError } from '../errors/app-error';
import { listPlans, type PlanRow } from '../plans/plan-queries';
import { workspacePlan } from '../plans/workspace-plan';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { Logger } from '../logging/logger';
import type { BillingProvider } from './billing-provider';
import { statusOf, type BillingStatus } from './account-changes';
import { findBilling, liveWorkspace, linkCustomer, openBilling } from './billing-queries';

export interface BillingStatusView {
  plan: string;
  status: BillingStatus;
  customer_id: string | null;
  subscription_id: string | null;
  current_period_start: string | null;
  current_period_end: string | null;
  cancel_at_period_end: boolean;
  /** Whether setup and the portal can be used (the provider is configured). */
  billing_configured: boolean;
}

/** A plan as a person choosing one sees it: its price and limits, and whether checkout sells it. */
export interface PlanOfferView {
  id: string;
  name: string;
  monthly_price_eur: number;
  overage_price_eur: number;
  price_per_tb_scanned_eur: number;
  queries_per_minute: number;
  included_queries: number;
  storage_limit_gb: number;
  connector_limit: number | null;
  max_running_jobs: number;
  query_history_days: number;
  time_travel_days: number;
  /** Whether a checkout can subscribe to it (the provider sells it); others are free or arranged apart. */
  purchasable: boolean;
  current: boolean;
}

/** Subscriptions in these states hold a plan: another plan is chosen in the provider's portal, not by a second checkout. */
const subscribed: ReadonlySet<BillingStatus> = new Set(['active', 'trialing', 'past_due']);

/**
 * A workspace's billing account: its status (the plan, and the subscription as the provider's events
 * last described it; answered without the provider), the provider's customer, made once, and sessions
 * of the provider's customer portal.
 */
export class BillingAccounts {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly provider: BillingProvider | undefined,
    private readonly frontendUrl: string,
  ) {}

  async status(workspaceId: string): Promise<BillingStatusView> {
    const [plan, account] = await Promise.all([workspacePlan(this.store, workspaceId), this.store.first(findBilling, { workspace_id: workspaceId })]);
    return {
      plan: plan.id,
      status: statusOf(account?.provider_status ?? null),
      customer_id: account?.customer_id ?? null,
      subscription_id: account?.subscription_id ?? null,
      current_period_start: account?.current_period_start ?? null,
      current_period_end: account?.current_period_end ?? null,
      cancel_at_period_end: account?.cancel_at_period_end === 1,
      billing_configured: this.provider !== undefined,
    };
  }

  /**
   * The workspace's customer, created at the provider the first time. The creation carries an
   * idempotency key of the workspace, so a retry, or two setups at once, get the one customer; the
   * first link stored wins.
   */
  async setup(workspaceId: string): Promise<{ customer_id: string }> {
    const provider = this.configured();
    const existing = await this.store.first(findBilling, { workspace_id: workspaceId });
    if (existing?.customer_id) return { customer_id: existing.customer_id };
    const workspace = await this.store.first(liveWorkspace, { workspace_id: workspaceId });
    if (!workspace) throw new AppError('WORKSPACE_ACCESS_DENIED', 'You are not a member of this workspace');
    const customerId = await provider.createCustomer({ workspaceId, name: workspace.name }, `oxbow-customer-${workspaceId}`);
    const linked = await this.store.transaction(async (tx) => {
      const now = this.clock.now().toISOString();
      await tx.run(openBilling, { workspace_id: workspaceId, provider: provider.name, now });
      await tx.run(linkCustomer, { workspace_id: workspaceId, customer_id: customerId, now });
      return tx.first(findBilling, { workspace_id: workspaceId });
    });
    return { customer_id: linked?.customer_id ?? customerId };
  }

  /** A session of the provider's portal (subscription, payment methods, invoices, cancellation) that returns to the workspace's billing page. */
  async portalSession(workspaceId: string): Promise<{ url: string }> {
    const provider = this.configured();
    const { customer_id } = await this.setup(workspaceId);
    return { url: await provider.createPortalSession(customer_id, `${this.frontendUrl}/workspaces/${workspaceId}/billing`) };
  }

  /** Every plan, in the order they are offered, the workspace's own marked. */
  async plans(workspaceId: string): Promise<PlanOfferView[]> {
    const [current, plans] = await Promise.all([workspacePlan(this.store, workspaceId), this.store.all(listPlans, {})]);
    return plans.map((plan) => offerOf(plan, plan.id === current.id));
  }

  /**
   * A session of the provider's hosted checkout that subscribes the workspace to a plan, returning to
   * the workspace's billing page. The plan changes when the provider's events say the subscription is
   * paid, never on the way back from the checkout.
   */
  async checkoutSession(workspaceId: string, planId: string): Promise<{ url: string; session_id: string }> {
    const provider = this.configured();
    const plan = (await this.store.all(listPlans, {})).find((candidate) => candidate.id === planId);
    if (!plan) throw RequestValidationError.at(['body', 'plan'], `No plan is named "${planId}"`);
    if (!plan.stripe_price_lookup_key) {
      throw new AppError('BAD_REQUEST', `The ${plan.name} plan is not bought through checkout`, {
        hint: plan.monthly_price_eur === 0 ? 'Cancel the subscription in the billing portal to return to it.' : 'Contact the operator to arrange it.',
      });
    }
    const account = await this.store.first(findBilling, { workspace_id: workspaceId });
    if (subscribed.has(statusOf(account?.provider_status ?? null))) {
      throw new AppError('CONFLICT', 'The workspace has a subscription already', { hint: 'Change its plan in the billing portal.' });
    }
    const { customer_id } = await this.setup(workspaceId);
    const back = `${this.frontendUrl}/workspaces/${workspaceId}/billing`;
    const session = await provider.createCheckoutSession({
      customerId: customer_id,
      workspaceId,
      planId: plan.id,
      priceLookupKey: plan.stripe_price_lookup_key,
      successUrl: `${back}?checkout=success`,
      cancelUrl: `${back}?checkout=cancelled`,
    });
    return { url: session.url, session_id: session.id };
  }

  /** Ends the workspace's subscription at the provider (the workspace is being deleted); one that ended already is fine. */
  async endSubscription(workspaceId: string, logger: Logger): Promise<void> {
    const account = await this.store.first(findBilling, { workspace_id: workspaceId });
    if (!account?.subscription_id || statusOf(account.provider_status) === 'canceled') return;
    if (!this.provider) {
      logger.warn('a deleted workspace still has a subscription, and billing is not configured to end it', {
        workspace_id: workspaceId,
        subscription_id: account.subscription_id,
      });
      return;
    }
    await this.provider.cancelSubscription(account.subscription_id);
  }

  private configured(): BillingProvider {
    if (!this.provider) {
      throw new AppError('BILLING_NOT_CONFIGURED', 'Billing is not configured on this service', {
        hint: 'The operator sets STRIPE_SECRET_KEY to enable it; the plan and its limits apply meanwhile.',
      });
    }
    return this.provider;
  }
}

function offerOf(plan: PlanRow, current: boolean): PlanOfferView {
  return {
    id: plan.id,
    name: plan.name,
    monthly_price_eur: Number(plan.monthly_price_eur),
    overage_price_eur: Number(plan.overage_price_eur),
    price_per_tb_scanned_eur: Number(plan.price_per_tb_scanned_eur),
    queries_per_minute: Number(plan.queries_per_minute),
    included_queries: Number(plan.included_queries),
    storage_limit_gb: Number(plan.storage_limit_gb),
    connector_limit: plan.connector_limit === null ? null : Number(plan.connector_limit),
    max_running_jobs: Number(plan.max_running_jobs),
    query_history_days: Number(plan.query_history_days),
    time_travel_days: Number(plan.time_travel_days),
    purchasable: plan.stripe_price_lookup_key !== null,
    current,
  };
}
