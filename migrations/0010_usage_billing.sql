-- Usage and billing. Usage reports read daily roll-ups kept in the same transaction as each usage
-- record, so a month of a busy workspace is a few hundred rows, never a scan of every query. Plans gain
-- their price per query beyond the included ones and the Stripe price that sells them, and the
-- enterprise plan, which has no limits. Each workspace's billing account follows the provider's events,
-- each applied once and never undone by an older one; overage is reported as meter events, each usage
-- record at most once.

-- Per query beyond the plan's included queries of the calendar month (0: not billed).
ALTER TABLE plans ADD COLUMN overage_price_eur DOUBLE PRECISION NOT NULL DEFAULT 0;
-- The lookup key of the Stripe price that sells the plan: a subscription to that price puts the
-- workspace on the plan. NULL: not sold through Stripe.
ALTER TABLE plans ADD COLUMN stripe_price_lookup_key TEXT;

UPDATE plans SET overage_price_eur = 0.002, stripe_price_lookup_key = 'oxbow_team' WHERE id = 'team';
UPDATE plans SET overage_price_eur = 0.001, stripe_price_lookup_key = 'oxbow_business' WHERE id = 'business';

-- No limits: the connector limit is NULL, and the limits the schema requires are the largest values
-- their columns and JSON carry exactly (2^31-1 queries a minute; 2^53-1 queries, GB and bytes).
INSERT INTO plans (id, name, monthly_price_eur, queries_per_minute, included_queries, storage_limit_gb, connector_limit, max_scan_bytes, price_per_tb_scanned_eur, time_travel_days, sort_order, max_concurrent_queries, overage_price_eur, stripe_price_lookup_key) VALUES
  ('enterprise', 'Enterprise', 1999, 2147483647, 9007199254740991, 9007199254740991, NULL, 9007199254740991, 5.00, 90, 4, 8, 0, 'oxbow_enterprise');

-- One row per workspace, UTC day and usage kind, added to with every usage record.
CREATE TABLE usage_daily (
  workspace_id TEXT NOT NULL,
  -- YYYY-MM-DD (UTC): text order is date order on both backends.
  day TEXT NOT NULL,
  source TEXT NOT NULL,
  query_count BIGINT NOT NULL,
  failed_count BIGINT NOT NULL,
  bytes_scanned BIGINT NOT NULL,
  cpu_ms BIGINT NOT NULL,
  rows_returned BIGINT NOT NULL,
  duration_ms BIGINT NOT NULL,
  cost_eur DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (workspace_id, day, source)
);

-- The records written before the roll-ups existed. Timestamps read as text are UTC on both backends
-- (SQLite keeps ISO-8601 UTC text; the Postgres connections run with TimeZone UTC).
INSERT INTO usage_daily (workspace_id, day, source, query_count, failed_count, bytes_scanned, cpu_ms, rows_returned, duration_ms, cost_eur)
SELECT workspace_id, substr(CAST(created_at AS TEXT), 1, 10), source, count(*), sum(CASE WHEN status = 'failed' THEN 1 ELSE 0 END),
       sum(bytes_scanned), sum(cpu_ms), sum(rows_returned), sum(duration_ms), sum(cost_eur)
FROM query_usage
GROUP BY workspace_id, substr(CAST(created_at AS TEXT), 1, 10), source;

-- The export and the overage report walk a workspace's records in (created_at, id) order a page at a
-- time: with the id in the index each page is read in index order and stops at its limit, instead of
-- sorting every later record of the period for every page.
DROP INDEX query_usage_workspace_time;
CREATE INDEX query_usage_workspace_time ON query_usage (workspace_id, created_at, id);

CREATE TABLE workspace_billing (
  workspace_id TEXT PRIMARY KEY,
  provider TEXT NOT NULL,
  customer_id TEXT,
  subscription_id TEXT,
  -- The subscription's status as the provider words it (Stripe: active, trialing, past_due, unpaid,
  -- canceled…); NULL before there is one. The interface's status and the plan follow from it.
  provider_status TEXT,
  -- The plan the subscription's price sells; the workspace is on it while the status grants it.
  subscribed_plan_id TEXT,
  current_period_start TIMESTAMPTZ,
  current_period_end TIMESTAMPTZ,
  -- Stripe's flag as 0 or 1: it is the provider's state as it reported it, not a moment of ours.
  cancel_at_period_end INTEGER NOT NULL,
  -- The `created` time (epoch seconds) of the newest event applied to the subscription and to the
  -- status: events arrive in any order, and an older one never undoes a newer one.
  subscription_as_of BIGINT NOT NULL,
  status_as_of BIGINT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX workspace_billing_customer ON workspace_billing (provider, customer_id) WHERE customer_id IS NOT NULL;

-- Every event the provider delivered, by its id: a redelivery is recognised and answered without
-- applying it again. Kept: a few per workspace and month.
CREATE TABLE billing_events (
  provider TEXT NOT NULL,
  event_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  event_created BIGINT NOT NULL,
  workspace_id TEXT,
  -- applied, stale (older than what the account already reflects) or ignored (no workspace of ours)
  outcome TEXT NOT NULL,
  received_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (provider, event_id)
);
CREATE INDEX billing_events_workspace ON billing_events (workspace_id) WHERE workspace_id IS NOT NULL;

-- The usage records reported to the provider as overage meter events: none is sent twice.
CREATE TABLE usage_meter_reports (
  usage_id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  -- The calendar month the record counts in (YYYY-MM-01).
  period_start TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  -- reported, or rejected (the provider refused the event for good, say older than it takes)
  outcome TEXT NOT NULL,
  reported_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX usage_meter_reports_period ON usage_meter_reports (workspace_id, period_start);
