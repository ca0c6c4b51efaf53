import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../../support/backends';
import type { TestApp } from '../../support/test-app';
import { bodyOf } from '../../support/http';
import type { TestUser } from '../../support/accounts';
import { createWorkspace } from '../../support/workspaces';
import { billingEnv, deliver, eventId, invoice, signatureHeader, stripeEvent, subscription } from '../../support/billing';
import { withUser } from '../../support/fixtures';

for (const backend of backends) {
  describe(`billing webhooks on ${backend}`, () => {
    let t: TestApp, owner: TestUser;
    beforeAll(async () => ({ t, user: owner } = await withUser(backend, { env: billingEnv(), label: 'webhooks' })));
    afterAll(() => t.stop());

    const now = () => Math.floor(t.clock.now().getTime() / 1000);
    /** A workspace with a Stripe customer (from stripe-mock). */
    const customerWorkspace = async () => {
      const { id } = await createWorkspace(t, owner, 'hooked');
      const { customer_id } = await bodyOf(await t.request(`/api/v1/workspaces/${id}/billing/setup`, { method: 'POST', token: owner.accessToken }));
      return { id, customer: customer_id as string };
    };
    const planOf = async (id: string) => (await bodyOf(await t.request(`/api/v1/workspaces/${id}`, { token: owner.accessToken }))).plan;
    const statusOf = async (id: string) => bodyOf(await t.request(`/api/v1/workspaces/${id}/billing/status`, { token: owner.accessToken }));
    const outcomeOf = async (response: Response) => {
      expect(response.status).toBe(200);
      return (await bodyOf(response)).outcome;
    };
    const subscriptionEvent = (
      type: string,
      customer: string,
      created: number,
      options: { id?: string; status?: string; lookupKey?: string; eventId?: string } = {},
    ) =>
      stripeEvent(
        type,
        subscription({ id: options.id ?? 'sub_main', customer, status: options.status ?? 'active', lookupKey: options.lookupKey ?? 'oxbow_team' }),
        { created, id: options.eventId },
      );
    const refused = async (response: Response, code: string) => {
      expect(response.status).toBe(400);
      const error = (await bodyOf(response)).detail.error;
      expect(error.code).toBe(code);
      return error.message as string;
    };

    test('a bad signature is refused and changes nothing', async () => {
      const { id, customer } = await customerWorkspace();
      const event = subscriptionEvent('customer.subscription.created', customer, now());
      expect(await refused(await deliver(t, event, { secret: 'whsec_someone_else' }), 'INVALID_SIGNATURE')).toContain('No signature');
      expect(await refused(await deliver(t, event, { header: 't=1,v1=00' }), 'INVALID_SIGNATURE')).toContain('No signature');
      expect(await refused(await deliver(t, event, { header: 'v1=abc' }), 'INVALID_SIGNATURE')).toContain('malformed');
      const missing = await t.request('/api/v1/billing/webhooks/stripe', {
        method: 'POST',
        body: JSON.stringify(event),
        headers: { 'content-type': 'application/json' },
      });
      expect(await refused(missing, 'INVALID_SIGNATURE')).toContain('missing');
      expect(await planOf(id)).toBe('free');
      expect((await statusOf(id)).status).toBe('none');
    });

    test('a body changed after signing is refused', async () => {
      const { id, customer } = await customerWorkspace();
      const signed = JSON.stringify(subscriptionEvent('customer.subscription.created', customer, now(), { lookupKey: 'oxbow_team' }));
      const header = await signatureHeader(signed, now());
      const tampered = signed.replace('oxbow_team', 'oxbow_enterprise');
      expect(await refused(await deliver(t, null, { payload: tampered, header }), 'INVALID_SIGNATURE')).toContain('No signature');
      expect(await refused(await deliver(t, null, { payload: `${signed} `, header }), 'INVALID_SIGNATURE')).toContain('No signature');
      expect(await planOf(id)).toBe('free');
    });

    test('a stale or future timestamp is refused; within five minutes it is taken', async () => {
      const { id, customer } = await customerWorkspace();
      // The service reads the same second as the test: a delivery slowed by a busy machine would otherwise
      // take a second or more off a timestamp 301 s ahead.
      t.clock.hold();
      try {
        const event = subscriptionEvent('customer.subscription.created', customer, now());
        expect(await refused(await deliver(t, event, { timestamp: now() - 301 }), 'INVALID_SIGNATURE')).toContain('timestamp');
        expect(await refused(await deliver(t, event, { timestamp: now() + 301 }), 'INVALID_SIGNATURE')).toContain('timestamp');
        expect(await planOf(id)).toBe('free');
        expect(await outcomeOf(await deliver(t, event, { timestamp: now() - 290 }))).toBe('applied');
        expect(await planOf(id)).toBe('team');
      } finally {
        t.clock.release();
      }
    });

    test('a replayed event is answered as a duplicate and not applied again', async () => {
      const { id, customer } = await customerWorkspace();
      const first = subscriptionEvent('customer.subscription.created', customer, now() - 100, { lookupKey: 'oxbow_team' });
      expect(await outcomeOf(await deliver(t, first))).toBe('applied');
      expect(await outcomeOf(await deliver(t, subscriptionEvent('customer.subscription.updated', customer, now() - 50, { lookupKey: 'oxbow_business' })))).toBe(
        'applied',
      );
      expect(await planOf(id)).toBe('business');
      expect(await outcomeOf(await deliver(t, first))).toBe('duplicate');
      expect(await planOf(id)).toBe('business');
    });

    test('events out of order: an older one never undoes a newer one', async () => {
      const { id, customer } = await customerWorkspace();
      const base = now() - 1_000;
      expect(await outcomeOf(await deliver(t, subscriptionEvent('customer.subscription.updated', customer, base + 20, { lookupKey: 'oxbow_business' })))).toBe(
        'applied',
      );
      expect(await outcomeOf(await deliver(t, subscriptionEvent('customer.subscription.created', customer, base + 10, { lookupKey: 'oxbow_team' })))).toBe(
        'stale',
      );
      expect(await planOf(id)).toBe('business');
      expect(
        await outcomeOf(
          await deliver(t, subscriptionEvent('customer.subscription.deleted', customer, base + 40, { status: 'canceled', lookupKey: 'oxbow_business' })),
        ),
      ).toBe('applied');
      expect(await outcomeOf(await deliver(t, subscriptionEvent('customer.subscription.updated', customer, base + 30, { lookupKey: 'oxbow_business' })))).toBe(
        'stale',
      );
      expect(await planOf(id)).toBe('free');
      expect((await statusOf(id)).status).toBe('canceled');
      // A late invoice of the ended subscription does not revive it.
      expect(await outcomeOf(await deliver(t, stripeEvent('invoice.paid', invoice(customer, 'sub_main'), { created: base + 50 })))).toBe('applied');
      expect(await statusOf(id)).toMatchObject({ status: 'canceled', plan: 'free' });
    });

    test('a failed payment makes the subscription past due with its plan kept; a paid invoice makes it active', async () => {
      const { id, customer } = await customerWorkspace();
      const base = now() - 1_000;
      await deliver(t, subscriptionEvent('customer.subscription.created', customer, base, { lookupKey: 'oxbow_team' }));
      expect(await outcomeOf(await deliver(t, stripeEvent('invoice.payment_failed', invoice(customer, 'sub_main'), { created: base + 10 })))).toBe('applied');
      expect(await statusOf(id)).toMatchObject({ status: 'past_due', plan: 'team' });
      // The subscription's own update, created before the failure but delivered after it, leaves the status alone.
      expect(await outcomeOf(await deliver(t, subscriptionEvent('customer.subscription.updated', customer, base + 5, { lookupKey: 'oxbow_team' })))).toBe(
        'applied',
      );
      expect((await statusOf(id)).status).toBe('past_due');
      expect(await outcomeOf(await deliver(t, stripeEvent('invoice.paid', invoice(customer, 'sub_main'), { created: base + 20 })))).toBe('applied');
      expect(await statusOf(id)).toMatchObject({ status: 'active', plan: 'team' });
      // Unpaid after the retries: the plan goes; paid again: it comes back.
      await deliver(t, subscriptionEvent('customer.subscription.updated', customer, base + 30, { status: 'unpaid', lookupKey: 'oxbow_team' }));
      expect(await statusOf(id)).toMatchObject({ status: 'past_due', plan: 'free' });
      await deliver(t, stripeEvent('invoice.paid', invoice(customer, 'sub_main'), { created: base + 40 }));
      expect(await statusOf(id)).toMatchObject({ status: 'active', plan: 'team' });
    });

    test('a checkout links its workspace, and the subscription that follows applies to it', async () => {
      const { id } = await createWorkspace(t, owner, 'checkout');
      const base = now() - 100;
      const checkout = {
        id: 'cs_test_1',
        object: 'checkout.session',
        mode: 'subscription',
        client_reference_id: id,
        customer: `cus_checkout_${id.slice(-8)}`,
        subscription: 'sub_checkout',
      };
      expect(await outcomeOf(await deliver(t, stripeEvent('checkout.session.completed', checkout, { created: base + 1 })))).toBe('applied');
      expect(await statusOf(id)).toMatchObject({ customer_id: checkout.customer, subscription_id: 'sub_checkout', status: 'none', plan: 'free' });
      // Created a second before the checkout completed, delivered after it.
      expect(
        await outcomeOf(
          await deliver(t, subscriptionEvent('customer.subscription.created', checkout.customer, base, { id: 'sub_checkout', lookupKey: 'oxbow_business' })),
        ),
      ).toBe('applied');
      expect(await statusOf(id)).toMatchObject({ status: 'active', plan: 'business', subscription_id: 'sub_checkout' });
    });

    test('the end of an older subscription does not end the one that replaced it', async () => {
      const { id, customer } = await customerWorkspace();
      const base = now() - 1_000;
      await deliver(t, subscriptionEvent('customer.subscription.created', customer, base, { id: 'sub_old', lookupKey: 'oxbow_team' }));
      await deliver(t, subscriptionEvent('customer.subscription.created', customer, base + 10, { id: 'sub_new', lookupKey: 'oxbow_business' }));
      expect(
        await outcomeOf(await deliver(t, subscriptionEvent('customer.subscription.deleted', customer, base + 20, { id: 'sub_old', status: 'canceled' }))),
      ).toBe('ignored');
      expect(await statusOf(id)).toMatchObject({ subscription_id: 'sub_new', status: 'active', plan: 'business' });
    });

    test('events about no workspace of ours, and types not acted on, are acknowledged and ignored', async () => {
      expect(await outcomeOf(await deliver(t, subscriptionEvent('customer.subscription.created', 'cus_nobody', now())))).toBe('ignored');
      expect(await outcomeOf(await deliver(t, stripeEvent('customer.created', { id: 'cus_new', object: 'customer' }, { created: now() })))).toBe('ignored');
    });

    test('an unknown provider is 404; a signed body that is no event is 400', async () => {
      const other = await t.request('/api/v1/billing/webhooks/paypal', {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      });
      expect(other.status).toBe(404);
      expect(await refused(await deliver(t, null, { payload: '{"id": "evt_1"}' }), 'BAD_REQUEST')).toContain('lacks');
      expect(await refused(await deliver(t, null, { payload: 'not json' }), 'BAD_REQUEST')).toContain('not JSON');
    });

    test('a subscription change moves the per-minute limit at once', async () => {
      const { id, customer } = await customerWorkspace();
      const query = () => t.request(`/api/v1/workspaces/${id}/query`, { method: 'POST', json: { sql: 'SELECT 1' }, token: owner.accessToken });
      for (let index = 0; index < 10; index++) expect((await query()).status).toBe(200);
      const limited = await query();
      expect(limited.status).toBe(429);
      expect(limited.headers.get('x-ratelimit-limit')).toBe('10');

      expect(
        await outcomeOf(await deliver(t, subscriptionEvent('customer.subscription.created', customer, now(), { eventId: eventId(), lookupKey: 'oxbow_team' }))),
      ).toBe('applied');
      const upgraded = await query();
      expect(upgraded.status).toBe(200);
      expect(upgraded.headers.get('x-ratelimit-limit')).toBe('60');

      expect(await outcomeOf(await deliver(t, subscriptionEvent('customer.subscription.deleted', customer, now() + 1, { status: 'canceled' })))).toBe(
        'applied',
      );
      const downgraded = await query();
      expect(downgraded.status).toBe(429);
      expect(downgraded.headers.get('x-ratelimit-limit')).toBe('10');
    });
  });
}
