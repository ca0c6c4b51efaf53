/** A customer to create for a workspace. */
export interface NewCustomer {
  workspaceId: string;
  name: string;
}

/** A checkout of the provider that subscribes a customer to the price that sells a plan. */
export interface NewCheckout {
  customerId: string;
  workspaceId: string;
  planId: string;
  /** The lookup key of the provider's price that sells the plan. */
  priceLookupKey: string;
  /** Where the provider sends the person back, paid or not. */
  successUrl: string;
  cancelUrl: string;
}

/** One overage query, reported once: the identifier makes a resend a no-op at the provider. */
export interface MeterEvent {
  identifier: string;
  customerId: string;
  /** When the query ran, in epoch seconds: the provider bills it in the period it falls in. */
  timestamp: number;
}

/**
 * What the service asks of the billing provider. Failures to reach it are 503
 * BILLING_PROVIDER_UNAVAILABLE (nothing was changed on our side).
 */
export interface BillingProvider {
  readonly name: string;
  /** Creates the customer; the same idempotency key returns the same customer. */
  createCustomer(customer: NewCustomer, idempotencyKey: string): Promise<string>;
  /** A session of the provider's customer portal; its URL. */
  createPortalSession(customerId: string, returnUrl: string): Promise<string>;
  /** A session of the provider's hosted checkout; its id and URL. */
  createCheckoutSession(checkout: NewCheckout): Promise<{ id: string; url: string }>;
  /** `rejected`: the provider refused this event for good (too old, say); retrying cannot help. */
  sendMeterEvent(event: MeterEvent): Promise<'sent' | 'rejected'>;
  /** Ends a subscription now; one that has ended already is fine. */
  cancelSubscription(subscriptionId: string): Promise<void>;
}
