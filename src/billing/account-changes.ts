import type { BillingRow } from './billing-queries';
import type { BillingChange, SubscriptionState } from './stripe-events';

export type BillingStatus = 'none' | 'active' | 'trialing' | 'past_due' | 'canceled';
export type AccountState = BillingRow;
/** applied: the account reflects the event; stale: it already reflects newer events; ignored: the event is not about its subscription. */
export type EventOutcome = 'applied' | 'stale' | 'ignored';

/** The provider's statuses under which the subscribed plan applies (past_due: while the provider retries the payment). */
const grantingStatuses: ReadonlySet<string> = new Set(['active', 'trialing', 'past_due']);

/** The interface's status for the provider's: unpaid and paused subscriptions are awaiting payment, expired ones ended. */
export function statusOf(providerStatus: string | null): BillingStatus {
  switch (providerStatus) {
    case 'active':
    case 'trialing':
      return providerStatus;
    case 'past_due':
    case 'unpaid':
    case 'paused':
      return 'past_due';
    case 'canceled':
    case 'incomplete_expired':
      return 'canceled';
    default:
      return 'none';
  }
}

/** The plan an account puts its workspace on; undefined while no subscription has said anything (the plan stays as it is). */
export function planOf(account: AccountState, unsubscribedPlan: string): string | undefined {
  if (account.provider_status === null) return undefined;
  if (!grantingStatuses.has(account.provider_status)) return unsubscribedPlan;
  return account.subscribed_plan_id ?? undefined;
}

/**
 * What one event does to an account, in the order the provider created events: each part of the
 * account (the subscription itself; its status) remembers the `created` time of the newest event that
 * set it, and an older event leaves that part alone, whatever order the deliveries came in. `plan` is
 * the plan the event's subscription price sells, if it sells one.
 */
export function applyChange(account: AccountState, created: number, change: BillingChange, plan: string | null): { next: AccountState; outcome: EventOutcome } {
  switch (change.kind) {
    case 'checkout':
      return applyCheckout(account, change);
    case 'subscription':
      return applySubscription(account, created, change.subscription, plan);
    case 'invoice':
      return applyInvoice(account, created, change.subscriptionId, change.paid);
    case 'other':
      return { next: account, outcome: 'ignored' };
    default:
      return change satisfies never;
  }
}

/** A checkout names the customer and subscription it made; their state comes with the subscription's own events. */
function applyCheckout(account: AccountState, change: Extract<BillingChange, { kind: 'checkout' }>): { next: AccountState; outcome: EventOutcome } {
  const next = { ...account, customer_id: change.customerId ?? account.customer_id };
  const current = account.subscription_id === null || !grantingStatuses.has(account.provider_status ?? '');
  if (change.subscriptionId && current) next.subscription_id = change.subscriptionId;
  return { next, outcome: 'applied' };
}

function applySubscription(
  account: AccountState,
  created: number,
  subscription: SubscriptionState,
  plan: string | null,
): { next: AccountState; outcome: EventOutcome } {
  const another = account.subscription_id !== null && account.subscription_id !== subscription.id;
  // A second subscription replaces the first only while it grants a plan: the end of an old one must not end the new.
  const replaces = grantingStatuses.has(subscription.status) && created >= account.subscription_as_of;
  if (another && !replaces) return { next: account, outcome: 'ignored' };
  const next = { ...account };
  let applied = false;
  if (created >= account.subscription_as_of) {
    Object.assign(next, {
      subscription_id: subscription.id,
      subscribed_plan_id: plan ?? account.subscribed_plan_id,
      current_period_start: isoOf(subscription.periodStart),
      current_period_end: isoOf(subscription.periodEnd),
      cancel_at_period_end: subscription.cancelAtPeriodEnd ? 1 : 0,
      subscription_as_of: created,
    });
    applied = true;
  }
  if (created >= account.status_as_of || another) {
    Object.assign(next, { provider_status: subscription.status, status_as_of: Math.max(created, account.status_as_of) });
    applied = true;
  }
  return { next, outcome: applied ? 'applied' : 'stale' };
}

/** An invoice moves a subscription's status between paid and awaiting payment; the subscription's own events decide the rest. */
function applyInvoice(account: AccountState, created: number, subscriptionId: string | null, paid: boolean): { next: AccountState; outcome: EventOutcome } {
  if (subscriptionId === null || subscriptionId !== account.subscription_id) return { next: account, outcome: 'ignored' };
  if (created < account.status_as_of) return { next: account, outcome: 'stale' };
  const from = account.provider_status ?? '';
  const to = paid ? (['past_due', 'unpaid'].includes(from) ? 'active' : null) : ['active', 'trialing'].includes(from) ? 'past_due' : null;
  if (to === null) return { next: account, outcome: 'applied' };
  return { next: { ...account, provider_status: to, status_as_of: created }, outcome: 'applied' };
}

function isoOf(epochSeconds: number | null): string | null {
  return epochSeconds === null ? null : new Date(epochSeconds * 1000).toISOString();
}
