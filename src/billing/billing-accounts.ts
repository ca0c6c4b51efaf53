import { AppError } from '../errors/app-error';
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

  /** Ends the workspace's subscription at the provider (the workspace is being deleted); one that ended already is fine. */
  async endSubscription(workspaceId: string, logger: Logger): Promise<void> {
    const account = await this.store.first(findBilling, { workspace_id: workspaceId });
    if (!account?.subscription_id || statusOf(account.provider_status) === 'canceled') return;
    if (!this.provider) {
      logger.warn('a deleted workspace still has a subscription, and billing is not configured to end it', { workspace_id: workspaceId, subscription_id: account.subscription_id });
      return;
    }
    await this.provider.cancelSubscription(account.subscription_id);
  }

  private configured(): BillingProvider {
    if (!this.provider) {
      throw new AppError('BILLING_NOT_CONFIGURED', 'Billing is not configured on this service', { hint: 'The operator sets STRIPE_SECRET_KEY to enable it; the plan and its limits apply meanwhile.' });
    }
    return this.provider;
  }
}
