import { AppError } from '../errors/app-error';

/** A subscription as an event reports it. */
export interface SubscriptionState {
  id: string;
  /** Stripe's word: active, trialing, past_due, unpaid, canceled, incomplete, incomplete_expired, paused. */
  status: string;
  /** The lookup keys of its prices: the one that sells a plan decides the plan. */
  priceLookupKeys: string[];
  periodStart: number | null;
  periodEnd: number | null;
  cancelAtPeriodEnd: boolean;
}

/** What an event asks of a workspace's billing account. */
export type BillingChange =
  | { kind: 'checkout'; workspaceId: string | null; customerId: string | null; subscriptionId: string | null }
  | { kind: 'subscription'; workspaceId: string | null; customerId: string | null; subscription: SubscriptionState }
  | { kind: 'invoice'; customerId: string | null; subscriptionId: string | null; paid: boolean }
  | { kind: 'other' };

export interface ProviderEvent {
  id: string;
  type: string;
  /** Epoch seconds: the order in which events are applied. */
  created: number;
  change: BillingChange;
}

/** The event types the service acts on; any other is acknowledged and recorded. */
export const handledEventTypes = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
] as const;

type Json = Record<string, unknown>;

/** Reads a verified Stripe event. Fields are read under both the current and the earlier API versions' names. */
export function parseStripeEvent(body: Uint8Array): ProviderEvent {
  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw malformed('The event is not JSON');
  }
  const root = asObject(event);
  const object = asObject(asObject(root?.data)?.object);
  const id = text(root?.id);
  const type = text(root?.type);
  const created = root?.created;
  if (!root || !object || !id || !type || typeof created !== 'number' || !Number.isSafeInteger(created)) {
    throw malformed('The event lacks its id, type, created time or data.object');
  }
  return { id, type, created, change: changeOf(type, object) };
}

function changeOf(type: string, object: Json): BillingChange {
  switch (type) {
    case 'checkout.session.completed':
      return {
        kind: 'checkout',
        workspaceId: text(object.client_reference_id) ?? text(asObject(object.metadata)?.workspace_id),
        customerId: idOf(object.customer),
        subscriptionId: idOf(object.subscription),
      };
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return {
        kind: 'subscription',
        workspaceId: text(asObject(object.metadata)?.workspace_id),
        customerId: idOf(object.customer),
        subscription: subscriptionOf(type, object),
      };
    case 'invoice.paid':
    case 'invoice.payment_failed':
      return {
        kind: 'invoice',
        customerId: idOf(object.customer),
        // Since API version 2025-03-31 an invoice names its subscription under parent.subscription_details.
        subscriptionId: idOf(object.subscription) ?? idOf(asObject(asObject(object.parent)?.subscription_details)?.subscription),
        paid: type === 'invoice.paid',
      };
    default:
      return { kind: 'other' };
  }
}

function subscriptionOf(type: string, object: Json): SubscriptionState {
  const items = (Array.isArray(asObject(object.items)?.data) ? (asObject(object.items)!.data as unknown[]) : [])
    .map(asObject)
    .filter((item): item is Json => item !== undefined);
  const firstItem = items[0];
  return {
    id: text(object.id) ?? '',
    status: type === 'customer.subscription.deleted' ? 'canceled' : (text(object.status) ?? 'incomplete'),
    priceLookupKeys: items.map((item) => text(asObject(item.price)?.lookup_key)).filter((key): key is string => key !== null),
    // Since API version 2025-03-31 the billing period is kept on each item.
    periodStart: seconds(object.current_period_start) ?? seconds(firstItem?.current_period_start),
    periodEnd: seconds(object.current_period_end) ?? seconds(firstItem?.current_period_end),
    cancelAtPeriodEnd: object.cancel_at_period_end === true,
  };
}

function asObject(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/** An expandable reference: an id, or the object itself. */
function idOf(value: unknown): string | null {
  return text(value) ?? text(asObject(value)?.id);
}

function seconds(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
}

function malformed(message: string): AppError {
  return new AppError('BAD_REQUEST', message, { hint: 'The body should be the billing provider’s event, as it sent it.' });
}
