import Stripe from 'stripe';
import { AppError } from '../errors/app-error';
import type { Logger } from '../logging/logger';
import type { BillingProvider, MeterEvent, NewCheckout, NewCustomer } from './billing-provider';

export interface StripeSettings {
  secretKey: string;
  /** Stripe's API, or a server that speaks it (stripe-mock in tests). */
  apiBase: URL;
  /** The meter overage queries are reported to. */
  meterEventName: string;
}

/** Stripe through its own package: its request signing, retries (with idempotency keys) and error types. */
export class StripeProvider implements BillingProvider {
  readonly name = 'stripe';
  private readonly stripe: Stripe;

  constructor(
    private readonly settings: StripeSettings,
    private readonly logger: Logger,
  ) {
    const { apiBase } = settings;
    this.stripe = new Stripe(settings.secretKey, {
      host: apiBase.hostname,
      port: apiBase.port ? Number(apiBase.port) : apiBase.protocol === 'https:' ? 443 : 80,
      protocol: apiBase.protocol === 'http:' ? 'http' : 'https',
      // Bun's fetch rather than node:http: the client the runtime itself is built around.
      httpClient: Stripe.createFetchHttpClient(),
      maxNetworkRetries: 2,
      timeout: 15_000,
      telemetry: false,
    });
  }

  async createCustomer(customer: NewCustomer, idempotencyKey: string): Promise<string> {
    const created = await this.call('create a customer', () =>
      this.stripe.customers.create({ name: customer.name, metadata: { workspace_id: customer.workspaceId } }, { idempotencyKey }),
    );
    return created.id;
  }

  async createPortalSession(customerId: string, returnUrl: string): Promise<string> {
    const session = await this.call('open a portal session', () => this.stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }));
    return session.url;
  }

  /**
   * Stripe Checkout in subscription mode for the active price with the plan's lookup key. The
   * workspace is named on the session (client_reference_id) and on the subscription (metadata), which
   * is how the webhook's events find it.
   */
  async createCheckoutSession(checkout: NewCheckout): Promise<{ id: string; url: string }> {
    const prices = await this.call('find the price of a plan', () =>
      this.stripe.prices.list({ lookup_keys: [checkout.priceLookupKey], active: true, limit: 1 }),
    );
    const price = prices.data[0];
    if (!price) {
      throw new AppError('BILLING_NOT_CONFIGURED', `No active Stripe price has the lookup key ${checkout.priceLookupKey}`, {
        hint: `The operator gives the price that sells the ${checkout.planId} plan the lookup key ${checkout.priceLookupKey}.`,
      });
    }
    const metadata = { workspace_id: checkout.workspaceId, plan: checkout.planId };
    const session = await this.call('open a checkout session', () =>
      this.stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: checkout.customerId,
        client_reference_id: checkout.workspaceId,
        line_items: [{ price: price.id, quantity: 1 }],
        success_url: checkout.successUrl,
        cancel_url: checkout.cancelUrl,
        metadata,
        subscription_data: { metadata },
      }),
    );
    if (!session.url) throw this.unavailable('open a checkout session', new Error('the session has no URL'));
    return { id: session.id, url: session.url };
  }

  async sendMeterEvent(event: MeterEvent): Promise<'sent' | 'rejected'> {
    try {
      await this.stripe.billing.meterEvents.create({
        event_name: this.settings.meterEventName,
        identifier: event.identifier,
        timestamp: event.timestamp,
        payload: { stripe_customer_id: event.customerId, value: '1' },
      });
      return 'sent';
    } catch (error) {
      // A request Stripe refuses as invalid (outside the window it takes, an unknown customer) stays refused.
      if (error instanceof Stripe.errors.StripeInvalidRequestError) {
        this.logger.warn('meter event refused', { identifier: event.identifier, message: error.message });
        return 'rejected';
      }
      throw this.unavailable('report a meter event', error);
    }
  }

  async cancelSubscription(subscriptionId: string): Promise<void> {
    try {
      await this.stripe.subscriptions.cancel(subscriptionId);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') return;
      throw this.unavailable('cancel a subscription', error);
    }
  }

  private async call<T>(what: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw this.unavailable(what, error);
    }
  }

  private unavailable(what: string, error: unknown): AppError {
    const message = error instanceof Error ? error.message : String(error);
    this.logger.warn('billing provider call failed', { what, message, type: error instanceof Stripe.errors.StripeError ? error.type : undefined });
    return new AppError('BILLING_PROVIDER_UNAVAILABLE', `Could not ${what} with the billing provider`, { hint: 'Try again in a moment.', cause: error });
  }
}
