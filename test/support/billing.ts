import Stripe from 'stripe';
import type { TestApp } from './test-app';
import { testEnv } from './test-env';

export const webhookSecret = 'whsec_test_0123456789abcdef';

/** An app's environment for billing against stripe-mock (or a recorder in front of it). */
export function billingEnv(apiBase: string = testEnv.stripeApiBase()): Record<string, string> {
  return { STRIPE_SECRET_KEY: 'sk_test_oxbow', STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_BASE: apiBase };
}

// The package's own signer, an implementation independent of the service's verifier.
const stripe = new Stripe('sk_test_unused');

let counter = 0;
export const eventId = () => `evt_test_${Date.now().toString(36)}_${++counter}`;

export interface EventOptions {
  id?: string;
  /** The event's `created`, epoch seconds. */
  created: number;
}

/** A Stripe event envelope as the API sends it. */
export function stripeEvent(type: string, object: Record<string, unknown>, options: EventOptions) {
  return {
    id: options.id ?? eventId(),
    object: 'event',
    api_version: '2026-10-28.endive',
    created: options.created,
    livemode: false,
    pending_webhooks: 1,
    type,
    data: { object },
  };
}

export interface SubscriptionOptions {
  id: string;
  customer: string;
  status: string;
  lookupKey?: string;
  periodStart?: number;
  periodEnd?: number;
  cancelAtPeriodEnd?: boolean;
  metadata?: Record<string, string>;
}

/** A subscription object of the current API version: the billing period on its item. */
export function subscription(options: SubscriptionOptions) {
  return {
    id: options.id,
    object: 'subscription',
    customer: options.customer,
    status: options.status,
    cancel_at_period_end: options.cancelAtPeriodEnd ?? false,
    metadata: options.metadata ?? {},
    items: {
      object: 'list',
      data: [
        {
          id: `si_${options.id}`,
          object: 'subscription_item',
          current_period_start: options.periodStart ?? 1_767_225_600,
          current_period_end: options.periodEnd ?? 1_769_904_000,
          price: { id: `price_${options.lookupKey ?? 'none'}`, object: 'price', lookup_key: options.lookupKey ?? null },
        },
      ],
    },
  };
}

/** An invoice of the current API version: its subscription under parent.subscription_details. */
export function invoice(customer: string, subscriptionId: string) {
  return {
    id: `in_${Date.now().toString(36)}`,
    object: 'invoice',
    customer,
    parent: { type: 'subscription_details', subscription_details: { subscription: subscriptionId } },
  };
}

/** A Stripe-Signature header for a payload, signed with `secret` (the test one) at `timestamp` (epoch seconds). */
export function signatureHeader(payload: string, timestamp: number, secret = webhookSecret): Promise<string> {
  return stripe.webhooks.generateTestHeaderStringAsync({ payload, secret, timestamp });
}

/** Posts an event (or a payload as given) to the webhook, signed with `secret` at `timestamp` (the app's now by default). */
export async function deliver(
  t: TestApp,
  event: unknown,
  options: { secret?: string; timestamp?: number; payload?: string; header?: string } = {},
): Promise<Response> {
  const payload = options.payload ?? JSON.stringify(event);
  const header = options.header ?? (await signatureHeader(payload, options.timestamp ?? Math.floor(t.clock.now().getTime() / 1000), options.secret));
  return t.request('/api/v1/billing/webhooks/stripe', {
    method: 'POST',
    body: payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
  });
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** The query string, decoded. */
  query: URLSearchParams;
  headers: Headers;
  body: string;
}

/**
 * A pass-through in front of stripe-mock that keeps every request the service sends: what stripe-mock
 * cannot show (it keeps no state), such as idempotency keys and meter event identifiers.
 */
export function recordingStripe(): { apiBase: string; requests: RecordedRequest[]; stop(): void } {
  const upstream = testEnv.stripeApiBase();
  const requests: RecordedRequest[] = [];
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const body = await request.text();
      requests.push({ method: request.method, path: url.pathname, query: url.searchParams, headers: request.headers, body });
      const headers = new Headers(request.headers);
      headers.delete('host');
      return fetch(`${upstream}${url.pathname}${url.search}`, { method: request.method, headers, body: request.method === 'GET' ? undefined : body });
    },
  });
  return { apiBase: `http://127.0.0.1:${server.port}`, requests, stop: () => void server.stop(true) };
}
