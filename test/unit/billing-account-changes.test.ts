import { describe, expect, test } from 'bun:test';
import { applyChange, planOf, statusOf, type AccountState } from '../../src/billing/account-changes';
import type { BillingChange } from '../../src/billing/stripe-events';

const fresh: AccountState = {
  workspace_id: 'w',
  provider: 'stripe',
  customer_id: 'cus_1',
  subscription_id: null,
  provider_status: null,
  subscribed_plan_id: null,
  current_period_start: null,
  current_period_end: null,
  cancel_at_period_end: 0,
  subscription_as_of: 0,
  status_as_of: 0,
};

const subscriptionChange = (status: string, id = 'sub_1'): BillingChange => ({
  kind: 'subscription',
  workspaceId: null,
  customerId: 'cus_1',
  subscription: { id, status, priceLookupKeys: [], periodStart: 1_767_225_600, periodEnd: 1_769_904_000, cancelAtPeriodEnd: false },
});

describe('billing account changes', () => {
  test('provider statuses map to the interface’s five, and decide whether the plan applies', () => {
    expect(['active', 'trialing', 'past_due', 'unpaid', 'paused', 'canceled', 'incomplete_expired', 'incomplete', null].map(statusOf)).toEqual([
      'active',
      'trialing',
      'past_due',
      'past_due',
      'past_due',
      'canceled',
      'canceled',
      'none',
      'none',
    ]);
    const on = (provider_status: string | null) => planOf({ ...fresh, provider_status, subscribed_plan_id: 'team' }, 'free');
    expect(['active', 'trialing', 'past_due', 'unpaid', 'canceled', 'incomplete'].map(on)).toEqual(['team', 'team', 'team', 'free', 'free', 'free']);
    expect(on(null)).toBeUndefined();
  });

  test('a subscription event sets the subscription and its status, both as of its time', () => {
    const { next, outcome } = applyChange(fresh, 100, subscriptionChange('active'), 'team');
    expect(outcome).toBe('applied');
    expect(next).toMatchObject({
      subscription_id: 'sub_1',
      provider_status: 'active',
      subscribed_plan_id: 'team',
      subscription_as_of: 100,
      status_as_of: 100,
      current_period_start: '2026-01-01T00:00:00.000Z',
    });
    expect(applyChange(next, 99, subscriptionChange('canceled'), null)).toEqual({ next, outcome: 'stale' });
    // The same second applies: Stripe's times are whole seconds.
    expect(applyChange(next, 100, subscriptionChange('past_due'), null).next.provider_status).toBe('past_due');
  });

  test('a price that sells no plan keeps the plan the subscription had', () => {
    const { next } = applyChange(fresh, 100, subscriptionChange('active'), 'business');
    expect(applyChange(next, 200, subscriptionChange('active'), null).next.subscribed_plan_id).toBe('business');
  });

  test('a checkout names its subscription without moving the time a subscription event is compared with', () => {
    const { next } = applyChange(fresh, 500, { kind: 'checkout', workspaceId: 'w', customerId: 'cus_2', subscriptionId: 'sub_9' }, null);
    expect(next).toMatchObject({ customer_id: 'cus_2', subscription_id: 'sub_9', subscription_as_of: 0 });
    expect(applyChange(next, 499, subscriptionChange('active', 'sub_9'), 'team').outcome).toBe('applied');
  });

  test('invoices move only between paid and awaiting payment, and only for the current subscription', () => {
    const active = applyChange(fresh, 100, subscriptionChange('active'), 'team').next;
    const failed = applyChange(active, 110, { kind: 'invoice', customerId: 'cus_1', subscriptionId: 'sub_1', paid: false }, null).next;
    expect(failed.provider_status).toBe('past_due');
    expect(applyChange(failed, 105, { kind: 'invoice', customerId: 'cus_1', subscriptionId: 'sub_1', paid: true }, null).outcome).toBe('stale');
    expect(applyChange(failed, 120, { kind: 'invoice', customerId: 'cus_1', subscriptionId: 'sub_other', paid: true }, null).outcome).toBe('ignored');
    const canceled = applyChange(active, 130, subscriptionChange('canceled'), null).next;
    expect(applyChange(canceled, 140, { kind: 'invoice', customerId: 'cus_1', subscriptionId: 'sub_1', paid: true }, null).next.provider_status).toBe(
      'canceled',
    );
  });

  test('a second subscription replaces the first while it grants a plan; the first one’s end is ignored', () => {
    const first = applyChange(fresh, 100, subscriptionChange('active', 'sub_1'), 'team').next;
    const second = applyChange(first, 200, subscriptionChange('active', 'sub_2'), 'business').next;
    expect(second).toMatchObject({ subscription_id: 'sub_2', subscribed_plan_id: 'business' });
    expect(applyChange(second, 300, subscriptionChange('canceled', 'sub_1'), null)).toEqual({ next: second, outcome: 'ignored' });
  });
});
