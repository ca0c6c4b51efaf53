import { t } from 'elysia';
import { documentedAs } from '../openapi/documented-schema';

export const billingModels = {
  BillingStatusResponse: t.Object({
    plan: t.String({ description: 'The plan the workspace is on' }),
    status: t.Union([t.Literal('none'), t.Literal('active'), t.Literal('trialing'), t.Literal('past_due'), t.Literal('canceled')], {
      description: "The subscription's status as the provider's events last described it; none without a subscription",
    }),
    customer_id: t.Nullable(t.String()),
    subscription_id: t.Nullable(t.String()),
    current_period_start: t.Nullable(t.String({ format: 'date-time' })),
    current_period_end: t.Nullable(t.String({ format: 'date-time' })),
    cancel_at_period_end: t.Boolean(),
    billing_configured: t.Boolean({ description: 'Whether setup and the portal can be used on this service' }),
  }),
  BillingSetupResponse: t.Object({ customer_id: t.String({ description: "The billing provider's customer, for the checkout" }) }),
  PlanOffer: t.Object({
    id: t.String(),
    name: t.String(),
    monthly_price_eur: t.Number(),
    overage_price_eur: t.Number({ description: 'Per query beyond the included ones' }),
    price_per_tb_scanned_eur: t.Number(),
    queries_per_minute: t.Integer(),
    included_queries: t.Integer({ description: 'Queries included per calendar month' }),
    storage_limit_gb: t.Number(),
    connector_limit: t.Nullable(t.Integer({ description: 'null: no limit' })),
    max_running_jobs: t.Integer(),
    query_history_days: t.Integer(),
    time_travel_days: t.Integer(),
    purchasable: t.Boolean({ description: 'Whether a checkout session can subscribe to it; free and arranged plans cannot' }),
    current: t.Boolean({ description: 'The workspace is on it' }),
  }),
  CheckoutSessionRequest: t.Object({
    plan: t.String({ minLength: 1, maxLength: 64, description: 'The plan to subscribe to (an id from the plans list that is purchasable)' }),
  }),
  CheckoutSessionResponse: t.Object({
    url: t.String({
      description: "The provider's hosted checkout: send the person there; it returns to /workspaces/<id>/billing?checkout=success (or =cancelled)",
    }),
    session_id: t.String(),
  }),
  PortalSessionResponse: t.Object({ url: t.String({ description: "The provider's portal: subscription, payment methods, invoices, cancellation" }) }),
  WebhookReceipt: t.Object({
    received: t.Literal(true),
    event_id: t.String(),
    event_type: t.String(),
    outcome: t.Union([t.Literal('applied'), t.Literal('stale'), t.Literal('ignored'), t.Literal('duplicate')], {
      description:
        'applied; stale: the account already reflects newer events; ignored: not about a subscription of ours, or a type not acted on; duplicate: delivered before',
    }),
  }),
};

/** The webhook's body: read as the bytes received, for the signature, then as the provider's event. */
export const providerEvent = documentedAs(t.Unknown(), { type: 'object', description: "The billing provider's event, exactly as it sent and signed it" });
