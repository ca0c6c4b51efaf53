import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../../support/test-app';
import { bodyOf } from '../../support/http';
import { createVerifiedUser, type TestUser } from '../../support/accounts';
import { addMember, createWorkspace } from '../../support/workspaces';
import type { WorkspaceActivities } from '../../../src/activities/workspace-activities';
import { billingEnv, deliver, recordingStripe, stripeEvent, subscription } from '../../support/billing';
import { withUser, withWorkspace } from '../../support/fixtures';

const post = (t: TestApp, path: string, user: TestUser) => t.request(path, { method: 'POST', token: user.accessToken });

describe('billing without Stripe configured', () => {
  let t: TestApp, owner: TestUser, workspaceId: string;
  beforeAll(async () => ({ t, user: owner, workspaceId } = await withWorkspace('local', { label: 'unbilled' })));
  afterAll(() => t.stop());

  test.each(['setup', 'portal-session'])('%s is 503 BILLING_NOT_CONFIGURED', async (operation) => {
    const response = await post(t, `/api/v1/workspaces/${workspaceId}/billing/${operation}`, owner);
    expect(response.status).toBe(503);
    expect((await bodyOf(response)).detail.error.code).toBe('BILLING_NOT_CONFIGURED');
  });

  test('status still answers with the plan', async () => {
    const response = await t.request(`/api/v1/workspaces/${workspaceId}/billing/status`, { token: owner.accessToken });
    expect(await bodyOf(response)).toEqual({
      plan: 'free',
      status: 'none',
      customer_id: null,
      subscription_id: null,
      current_period_start: null,
      current_period_end: null,
      cancel_at_period_end: false,
      billing_configured: false,
    });
  });

  test('the webhook without a signing secret is 503 BILLING_NOT_CONFIGURED, and changes nothing', async () => {
    const response = await deliver(
      t,
      stripeEvent('customer.subscription.created', subscription({ id: 'sub_x', customer: 'cus_x', status: 'active', lookupKey: 'oxbow_team' }), { created: 1 }),
    );
    expect(response.status).toBe(503);
    expect((await bodyOf(response)).detail.error.code).toBe('BILLING_NOT_CONFIGURED');
  });
});

describe('billing against stripe-mock', () => {
  let t: TestApp;
  let stripe: ReturnType<typeof recordingStripe>;
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let viewer: TestUser;
  let workspaceId: string;
  beforeAll(async () => {
    stripe = recordingStripe();
    ({ t, user: owner } = await withUser('local', { env: { ...billingEnv(stripe.apiBase), FRONTEND_URL: 'https://app.oxbow.test' }, label: 'billing-owner' }));
    admin = await createVerifiedUser(t, 'billing-admin');
    member = await createVerifiedUser(t, 'billing-member');
    viewer = await createVerifiedUser(t, 'billing-viewer');
    workspaceId = (await createWorkspace(t, owner, 'billed')).id;
    await addMember(t, workspaceId, owner, admin, 'ADMIN');
    await addMember(t, workspaceId, owner, member, 'MEMBER');
    await addMember(t, workspaceId, owner, viewer, 'VIEWER');
  });
  afterAll(async () => {
    await t.stop();
    stripe.stop();
  });

  /** The customers Stripe was asked to create for a workspace (tests run in any order). */
  const customerCreations = (id: string) =>
    stripe.requests.filter(
      (request) => request.method === 'POST' && request.path === '/v1/customers' && new URLSearchParams(request.body).get('metadata[workspace_id]') === id,
    );

  test('setup creates the customer once, with an idempotency key; a second call returns the same id', async () => {
    const first = await post(t, `/api/v1/workspaces/${workspaceId}/billing/setup`, admin);
    expect(first.status).toBe(200);
    const { customer_id } = await bodyOf(first);
    expect(customer_id).toMatch(/^cus_/);
    const [creation] = customerCreations(workspaceId);
    expect(creation!.headers.get('idempotency-key')).toBe(`oxbow-customer-${workspaceId}`);

    expect(await bodyOf(await post(t, `/api/v1/workspaces/${workspaceId}/billing/setup`, owner))).toEqual({ customer_id });
    expect(customerCreations(workspaceId)).toHaveLength(1);
    expect((await bodyOf(await t.request(`/api/v1/workspaces/${workspaceId}/billing/status`, { token: viewer.accessToken }))).customer_id).toBe(customer_id);
  });

  test('two setups at once keep one customer', async () => {
    const { id } = await createWorkspace(t, owner, 'race');
    const answers = await Promise.all([1, 2].map(() => post(t, `/api/v1/workspaces/${id}/billing/setup`, owner).then(bodyOf)));
    expect(answers[0].customer_id).toMatch(/^cus_/);
    expect(answers[1]).toEqual(answers[0]);
    // Every creation carried the workspace's key: at Stripe a second one returns the first customer.
    expect(new Set(customerCreations(id).map((request) => request.headers.get('idempotency-key')))).toEqual(new Set([`oxbow-customer-${id}`]));
  });

  test('the portal session returns the portal URL, coming back to the workspace’s billing page', async () => {
    const response = await post(t, `/api/v1/workspaces/${workspaceId}/billing/portal-session`, owner);
    expect(response.status).toBe(200);
    const { url } = await bodyOf(response);
    expect(url).toStartWith('https://');
    const request = stripe.requests.findLast((candidate) => candidate.path === '/v1/billing_portal/sessions')!;
    const form = new URLSearchParams(request.body);
    expect(form.get('return_url')).toBe(`https://app.oxbow.test/workspaces/${workspaceId}/billing`);
    expect(form.get('customer')).toBe((await bodyOf(await post(t, `/api/v1/workspaces/${workspaceId}/billing/setup`, owner))).customer_id);
  });

  test.each([
    ['MEMBER', 'setup'],
    ['MEMBER', 'portal-session'],
    ['VIEWER', 'setup'],
    ['VIEWER', 'portal-session'],
  ])('a %s cannot %s: 403 INSUFFICIENT_ROLE', async (role, operation) => {
    const user = role === 'MEMBER' ? member : viewer;
    const response = await post(t, `/api/v1/workspaces/${workspaceId}/billing/${operation}`, user);
    expect(response.status).toBe(403);
    expect((await bodyOf(response)).detail.error.code).toBe('INSUFFICIENT_ROLE');
  });

  test('status reports the subscription the webhook described, and the plan it moved the workspace to', async () => {
    const { id } = await createWorkspace(t, owner, 'subscribed');
    const { customer_id } = await bodyOf(await post(t, `/api/v1/workspaces/${id}/billing/setup`, owner));
    const created = Math.floor(t.clock.now().getTime() / 1000);
    const event = stripeEvent(
      'customer.subscription.created',
      subscription({
        id: 'sub_status',
        customer: customer_id,
        status: 'trialing',
        lookupKey: 'oxbow_business',
        periodStart: 1_772_323_200,
        periodEnd: 1_775_001_600,
        cancelAtPeriodEnd: true,
      }),
      { created },
    );
    expect((await bodyOf(await deliver(t, event))).outcome).toBe('applied');
    expect(await bodyOf(await t.request(`/api/v1/workspaces/${id}/billing/status`, { token: owner.accessToken }))).toEqual({
      plan: 'business',
      status: 'trialing',
      customer_id,
      subscription_id: 'sub_status',
      current_period_start: '2026-03-01T00:00:00.000Z',
      current_period_end: '2026-04-01T00:00:00.000Z',
      cancel_at_period_end: true,
      billing_configured: true,
    });
    expect((await bodyOf(await t.request(`/api/v1/workspaces/${id}`, { token: owner.accessToken }))).plan).toBe('business');
  });

  test('purging a deleted workspace ends its subscription at Stripe first', async () => {
    const { id } = await createWorkspace(t, owner, 'leaving');
    const { customer_id } = await bodyOf(await post(t, `/api/v1/workspaces/${id}/billing/setup`, owner));
    const created = Math.floor(t.clock.now().getTime() / 1000);
    await deliver(
      t,
      stripeEvent('customer.subscription.created', subscription({ id: 'sub_leaving', customer: customer_id, status: 'active', lookupKey: 'oxbow_team' }), {
        created,
      }),
    );
    // The purge's first step, as its workflow runs it.
    await (t.services.activities as WorkspaceActivities).stopWorkspaceDurableWork(id);
    expect(stripe.requests.some((request) => request.method === 'DELETE' && request.path === '/v1/subscriptions/sub_leaving')).toBe(true);
  });
});
