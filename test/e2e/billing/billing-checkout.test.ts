import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../../support/test-app';
import { bodyOf } from '../../support/http';
import { createVerifiedUsers, type TestUser } from '../../support/accounts';
import { addMember, createWorkspace } from '../../support/workspaces';
import { billingEnv, deliver, recordingStripe, stripeEvent, subscription } from '../../support/billing';
import { withWorkspace } from '../../support/fixtures';

const frontend = 'https://app.oxbow.test';

/** The plans on offer and the checkout that subscribes a workspace to one (extensions of the interface). */
describe('plans and checkout against stripe-mock', () => {
  let t: TestApp;
  let stripe: ReturnType<typeof recordingStripe>;
  let owner: TestUser;
  let member: TestUser;
  let viewer: TestUser;
  let workspaceId: string;

  beforeAll(async () => {
    stripe = recordingStripe();
    ({
      t,
      user: owner,
      workspaceId,
    } = await withWorkspace('local', { env: { ...billingEnv(stripe.apiBase), FRONTEND_URL: frontend }, label: 'checkout-owner' }));
    [member, viewer] = await createVerifiedUsers(t, 'checkout-member', 'checkout-viewer');
    await addMember(t, workspaceId, owner, member, 'MEMBER');
    await addMember(t, workspaceId, owner, viewer, 'VIEWER');
  });
  afterAll(async () => {
    await t.stop();
    stripe.stop();
  });

  const checkout = (id: string, user: TestUser, body: unknown) =>
    t.request(`/api/v1/workspaces/${id}/billing/checkout-session`, { method: 'POST', json: body, token: user.accessToken });

  test('every plan with its price and limits, the workspace’s own marked, readable by a viewer', async () => {
    const response = await t.request(`/api/v1/workspaces/${workspaceId}/billing/plans`, { token: viewer.accessToken });
    expect(response.status).toBe(200);
    const plans = await bodyOf(response);
    expect(plans.map((plan: { id: string }) => plan.id)).toEqual(['free', 'team', 'business', 'enterprise']);
    expect(plans.map((plan: { current: boolean; purchasable: boolean }) => [plan.current, plan.purchasable])).toEqual([
      [true, false],
      [false, true],
      [false, true],
      [false, true],
    ]);
    const team = plans[1];
    expect(team).toMatchObject({ name: expect.any(String), queries_per_minute: 60, max_running_jobs: 2, query_history_days: 30, overage_price_eur: 0.002 });
    expect(team.monthly_price_eur).toBeGreaterThan(0);
    expect(team.included_queries).toBeGreaterThan(plans[0].included_queries);
  });

  test('checkout subscribes to the price with the plan’s lookup key and returns to the billing page', async () => {
    const response = await checkout(workspaceId, owner, { plan: 'team' });
    expect(response.status).toBe(200);
    const { url, session_id } = await bodyOf(response);
    expect(url).toStartWith('https://');
    expect(session_id).toMatch(/^cs_/);

    // The price is found by the plan's lookup key, as the webhook finds the plan by it.
    const lookup = stripe.requests.findLast((request) => request.method === 'GET' && request.path === '/v1/prices')!;
    expect(Object.fromEntries(lookup.query)).toMatchObject({ 'lookup_keys[0]': 'oxbow_team', active: 'true' });
    const { customer_id } = await bodyOf(await t.request(`/api/v1/workspaces/${workspaceId}/billing/setup`, { method: 'POST', token: owner.accessToken }));
    const created = stripe.requests.findLast((request) => request.method === 'POST' && request.path === '/v1/checkout/sessions')!;
    const form = new URLSearchParams(created.body);
    expect(Object.fromEntries([...form.entries()].filter(([key]) => !key.startsWith('line_items')))).toEqual({
      mode: 'subscription',
      customer: customer_id,
      client_reference_id: workspaceId,
      success_url: `${frontend}/workspaces/${workspaceId}/billing?checkout=success`,
      cancel_url: `${frontend}/workspaces/${workspaceId}/billing?checkout=cancelled`,
      'metadata[workspace_id]': workspaceId,
      'metadata[plan]': 'team',
      'subscription_data[metadata][workspace_id]': workspaceId,
      'subscription_data[metadata][plan]': 'team',
    });
    expect(form.get('line_items[0][quantity]')).toBe('1');
    expect(form.get('line_items[0][price]')).toMatch(/^price_/);
  });

  test('a member cannot start a checkout; the free plan or an unknown one cannot be bought', async () => {
    const refused = await checkout(workspaceId, member, { plan: 'team' });
    expect(refused.status).toBe(403);
    expect((await bodyOf(refused)).detail.error.code).toBe('INSUFFICIENT_ROLE');
    const free = await checkout(workspaceId, owner, { plan: 'free' });
    expect(free.status).toBe(400);
    expect((await bodyOf(free)).detail.error).toMatchObject({ code: 'BAD_REQUEST', hint: expect.stringContaining('portal') });
    const unknown = await checkout(workspaceId, owner, { plan: 'platinum' });
    expect(unknown.status).toBe(422);
    expect((await bodyOf(unknown)).detail[0].loc).toEqual(['body', 'plan']);
    expect((await checkout(workspaceId, owner, {})).status).toBe(422);
  });

  test('a workspace with a subscription changes plans in the portal: a second checkout is 409', async () => {
    const { id } = await createWorkspace(t, owner, 'subscribed-checkout');
    const { customer_id } = await bodyOf(await t.request(`/api/v1/workspaces/${id}/billing/setup`, { method: 'POST', token: owner.accessToken }));
    const created = Math.floor(t.clock.now().getTime() / 1000);
    await deliver(
      t,
      stripeEvent('customer.subscription.created', subscription({ id: 'sub_checkout', customer: customer_id, status: 'active', lookupKey: 'oxbow_team' }), {
        created,
      }),
    );
    const response = await checkout(id, owner, { plan: 'business' });
    expect(response.status).toBe(409);
    expect((await bodyOf(response)).detail.error).toMatchObject({ code: 'CONFLICT', hint: expect.stringContaining('portal') });
    const plans = await bodyOf(await t.request(`/api/v1/workspaces/${id}/billing/plans`, { token: owner.accessToken }));
    expect(plans.find((plan: { current: boolean }) => plan.current).id).toBe('team');
  });
});

describe('checkout without Stripe configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('local');
  });
  afterAll(() => t.stop());

  test('is 503 BILLING_NOT_CONFIGURED; the plans are still listed', async () => {
    const { user: owner, workspaceId: id } = await withWorkspace(t, { label: 'checkout-unbilled' });
    const response = await t.request(`/api/v1/workspaces/${id}/billing/checkout-session`, { method: 'POST', json: { plan: 'team' }, token: owner.accessToken });
    expect(response.status).toBe(503);
    expect((await bodyOf(response)).detail.error.code).toBe('BILLING_NOT_CONFIGURED');
    expect((await t.request(`/api/v1/workspaces/${id}/billing/plans`, { token: owner.accessToken })).status).toBe(200);
  });
});
