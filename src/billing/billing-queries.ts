import { namedQuery } from '../store/named-query';

/** A workspace's account with the billing provider, as stored (a type, not an interface: it binds as query parameters). */
export type BillingRow = {
  workspace_id: string;
  provider: string;
  customer_id: string | null;
  subscription_id: string | null;
  provider_status: string | null;
  subscribed_plan_id: string | null;
  current_period_start: string | null;
  current_period_end: string | null;
  cancel_at_period_end: number;
  subscription_as_of: number;
  status_as_of: number;
};

const columns = `workspace_id, provider, customer_id, subscription_id, provider_status, subscribed_plan_id, current_period_start, current_period_end,
  cancel_at_period_end, subscription_as_of, status_as_of`;

export const findBilling = namedQuery<{ workspace_id: string }, BillingRow>(
  'billing.find',
  `SELECT ${columns} FROM workspace_billing WHERE workspace_id = :workspace_id`,
);

export const findBillingByCustomer = namedQuery<{ provider: string; customer_id: string }, BillingRow>(
  'billing.find_by_customer',
  `SELECT ${columns} FROM workspace_billing WHERE provider = :provider AND customer_id = :customer_id`,
);

/** The account of a workspace that has none yet, with no customer and no subscription. */
export const openBilling = namedQuery<{ workspace_id: string; provider: string; now: string }>(
  'billing.open',
  `INSERT INTO workspace_billing (workspace_id, provider, customer_id, subscription_id, provider_status, subscribed_plan_id, current_period_start, current_period_end,
     cancel_at_period_end, subscription_as_of, status_as_of, created_at, updated_at)
   VALUES (:workspace_id, :provider, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, :now, :now)
   ON CONFLICT (workspace_id) DO NOTHING`,
);

/** Links the customer made at setup, unless one is linked already (a concurrent setup, a checkout). */
export const linkCustomer = namedQuery<{ workspace_id: string; customer_id: string; now: string }>(
  'billing.link_customer',
  'UPDATE workspace_billing SET customer_id = :customer_id, updated_at = :now WHERE workspace_id = :workspace_id AND customer_id IS NULL',
);

export const saveBilling = namedQuery<BillingRow & { now: string }>(
  'billing.save',
  `UPDATE workspace_billing SET customer_id = :customer_id, subscription_id = :subscription_id, provider_status = :provider_status,
     subscribed_plan_id = :subscribed_plan_id, current_period_start = :current_period_start, current_period_end = :current_period_end,
     cancel_at_period_end = :cancel_at_period_end, subscription_as_of = :subscription_as_of, status_as_of = :status_as_of, updated_at = :now
   WHERE workspace_id = :workspace_id`,
);

/** The plan a provider's price sells, by the price's lookup key. */
export const planForPriceKey = namedQuery<{ lookup_key: string }, { id: string }>(
  'billing.plan_for_price',
  'SELECT id FROM plans WHERE stripe_price_lookup_key = :lookup_key',
);

export const setWorkspacePlan = namedQuery<{ workspace_id: string; plan_id: string; now: string }>(
  'billing.set_workspace_plan',
  'UPDATE workspaces SET plan_id = :plan_id, updated_at = :now WHERE id = :workspace_id AND deleted_at IS NULL',
);

export const liveWorkspace = namedQuery<{ workspace_id: string }, { id: string; name: string; plan_id: string }>(
  'billing.live_workspace',
  'SELECT id, name, plan_id FROM workspaces WHERE id = :workspace_id AND deleted_at IS NULL',
);

/** Records a delivered event; a redelivery inserts nothing (and waits for a concurrent first delivery to commit). */
export const recordEvent = namedQuery<{ provider: string; event_id: string; event_type: string; event_created: number; now: string }>(
  'billing.record_event',
  `INSERT INTO billing_events (provider, event_id, event_type, event_created, workspace_id, outcome, received_at)
   VALUES (:provider, :event_id, :event_type, :event_created, NULL, 'received', :now)
   ON CONFLICT (provider, event_id) DO NOTHING`,
);

export const settleEvent = namedQuery<{ provider: string; event_id: string; workspace_id: string | null; outcome: string }>(
  'billing.settle_event',
  'UPDATE billing_events SET workspace_id = :workspace_id, outcome = :outcome WHERE provider = :provider AND event_id = :event_id',
);

export const deleteWorkspaceBilling = namedQuery<{ workspace_id: string }>(
  'billing.delete_for_workspace',
  'DELETE FROM workspace_billing WHERE workspace_id = :workspace_id',
);
export const deleteWorkspaceBillingEvents = namedQuery<{ workspace_id: string }>(
  'billing.delete_events_for_workspace',
  'DELETE FROM billing_events WHERE workspace_id = :workspace_id',
);
