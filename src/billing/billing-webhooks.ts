import { AppError } from '../errors/app-error';
import type { Logger } from '../logging/logger';
import { defaultPlanId } from '../plans/plan-queries';
import type { Store, Transaction } from '../store/store';
import type { Clock } from '../util/clock';
import { applyChange, planOf, type EventOutcome } from './account-changes';
import {
  findBilling,
  findBillingByCustomer,
  liveWorkspace,
  openBilling,
  planForPriceKey,
  recordEvent,
  saveBilling,
  setWorkspacePlan,
  settleEvent,
} from './billing-queries';
import { parseStripeEvent, type BillingChange, type ProviderEvent } from './stripe-events';
import { verifyStripeSignature } from './webhook-signature';

export interface WebhookReceipt {
  received: true;
  event_id: string;
  event_type: string;
  /** duplicate: delivered before, answered as then without applying it again. */
  outcome: EventOutcome | 'duplicate';
}

const provider = 'stripe';

/**
 * The billing provider's events, from the signed body to the workspace's account: the signature is
 * checked over the raw bytes, each event is recorded by id (a redelivery changes nothing), and its
 * change is applied in one transaction with the record, under a lock on the workspace, in the order
 * the provider created events. A subscription that changes moves the workspace's plan, and with it
 * every limit, in that same transaction.
 */
export class BillingWebhooks {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly signingSecret: string | undefined,
    private readonly logger: Logger,
    /** Told once a workspace's plan changed and committed: every process follows its limits. */
    private readonly onPlanChanged: (workspaceId: string) => Promise<void> = () => Promise.resolve(),
  ) {}

  async receive(billingProvider: string, body: Uint8Array, signature: string | undefined): Promise<WebhookReceipt> {
    if (billingProvider !== provider)
      throw new AppError('NOT_FOUND', `There is no billing provider named ${billingProvider}`, { hint: 'Events are taken from stripe.' });
    if (!this.signingSecret)
      throw new AppError('BILLING_NOT_CONFIGURED', 'Billing webhooks are not configured on this service', {
        hint: 'The operator sets STRIPE_WEBHOOK_SECRET to take them.',
      });
    verifyStripeSignature(body, signature, this.signingSecret, this.clock.now());
    const event = parseStripeEvent(body);
    const plan = await this.planSold(event.change);
    let moved: string | undefined;
    const outcome = await this.store.transaction((tx) => this.apply(tx, event, plan, (workspaceId) => (moved = workspaceId)));
    if (moved) await this.onPlanChanged(moved);
    this.logger.info('billing event', { event_id: event.id, event_type: event.type, outcome });
    return { received: true, event_id: event.id, event_type: event.type, outcome };
  }

  private async apply(tx: Transaction, event: ProviderEvent, plan: string | null, planSet: (workspaceId: string) => void): Promise<WebhookReceipt['outcome']> {
    const now = this.clock.now().toISOString();
    const key = { provider, event_id: event.id };
    // A redelivery finds the first delivery's record (on Postgres it waits for that transaction to end).
    if ((await tx.run(recordEvent, { ...key, event_type: event.type, event_created: event.created, now })) === 0) return 'duplicate';
    const workspaceId = await this.workspaceOf(tx, event.change);
    if (!workspaceId) {
      await tx.run(settleEvent, { ...key, workspace_id: null, outcome: 'ignored' });
      return 'ignored';
    }
    await tx.lock(`billing:${workspaceId}`);
    await tx.run(openBilling, { workspace_id: workspaceId, provider, now });
    const account = (await tx.first(findBilling, { workspace_id: workspaceId }))!;
    const { next, outcome } = applyChange(account, event.created, event.change, plan);
    if (outcome === 'applied') {
      await tx.run(saveBilling, { ...next, now });
      const planId = planOf(next, defaultPlanId);
      if (planId && (await tx.run(setWorkspacePlan, { workspace_id: workspaceId, plan_id: planId, now })) > 0) planSet(workspaceId);
    }
    await tx.run(settleEvent, { ...key, workspace_id: workspaceId, outcome });
    return outcome;
  }

  /**
   * The workspace an event is about: a checkout names it (client_reference_id or metadata), other
   * events through their customer, linked at setup or checkout; a subscription's metadata may name
   * it too, unless the workspace is linked to another customer. No workspace of ours: ignored.
   */
  private async workspaceOf(tx: Transaction, change: BillingChange): Promise<string | null> {
    if (change.kind === 'other') return null;
    const byCustomer = change.customerId ? ((await tx.first(findBillingByCustomer, { provider, customer_id: change.customerId }))?.workspace_id ?? null) : null;
    const named = change.kind === 'invoice' ? null : change.workspaceId;
    if (!named) return byCustomer;
    if (!(await tx.first(liveWorkspace, { workspace_id: named }))) return byCustomer;
    if (byCustomer && byCustomer !== named) return change.kind === 'checkout' ? null : byCustomer;
    const linked = (await tx.first(findBilling, { workspace_id: named }))?.customer_id ?? null;
    if (linked && change.customerId && linked !== change.customerId && change.kind !== 'checkout') return null;
    return named;
  }

  private async planSold(change: BillingChange): Promise<string | null> {
    if (change.kind !== 'subscription') return null;
    for (const lookupKey of change.subscription.priceLookupKeys) {
      const plan = await this.store.first(planForPriceKey, { lookup_key: lookupKey });
      if (plan) return plan.id;
    }
    if (change.subscription.priceLookupKeys.length > 0)
      this.logger.warn('no plan sells the subscription’s prices', { lookup_keys: change.subscription.priceLookupKeys });
    return null;
  }
}
