-- Workspaces, their members and invitations, and the plans they are on. Plan values live here, not in
-- code, so that limits, prices and quotas change without a release.

CREATE TABLE plans (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  monthly_price_eur DOUBLE PRECISION NOT NULL,
  queries_per_minute INTEGER NOT NULL,
  included_queries BIGINT NOT NULL,
  storage_limit_gb DOUBLE PRECISION NOT NULL,
  -- NULL: no limit.
  connector_limit INTEGER,
  -- A query whose estimated scan exceeds this is refused with QUERY_TOO_LARGE unless forced.
  max_scan_bytes BIGINT NOT NULL,
  price_per_tb_scanned_eur DOUBLE PRECISION NOT NULL,
  time_travel_days INTEGER NOT NULL,
  sort_order INTEGER NOT NULL
);

INSERT INTO plans (id, name, monthly_price_eur, queries_per_minute, included_queries, storage_limit_gb, connector_limit, max_scan_bytes, price_per_tb_scanned_eur, time_travel_days, sort_order) VALUES
  ('free', 'Free', 0, 10, 1000, 5, 2, 10737418240, 5.00, 1, 1),
  ('team', 'Team', 49, 60, 50000, 100, 20, 1099511627776, 5.00, 7, 2),
  ('business', 'Business', 399, 100, 500000, 1000, NULL, 10995116277760, 5.00, 30, 3);

CREATE TABLE workspaces (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  region TEXT NOT NULL,
  plan_id TEXT NOT NULL REFERENCES plans (id),
  created_by TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  -- Set when deletion starts: every access stops at once, the purge workflow removes the rest.
  deleted_at TIMESTAMPTZ
);
CREATE UNIQUE INDEX workspaces_live_slug ON workspaces (slug) WHERE deleted_at IS NULL;

-- Members and pending invitations in one list: an invitation has an address and no user until the
-- address is verified by an account, when it becomes an active member.
CREATE TABLE workspace_members (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  user_id TEXT REFERENCES users (id),
  invited_email TEXT,
  role TEXT NOT NULL,
  status TEXT NOT NULL,
  invited_by TEXT,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX workspace_members_user ON workspace_members (workspace_id, user_id) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX workspace_members_invited ON workspace_members (workspace_id, invited_email) WHERE invited_email IS NOT NULL;
-- Exactly one owner: at most one here, at least one by the transfer rules.
CREATE UNIQUE INDEX workspace_members_one_owner ON workspace_members (workspace_id) WHERE role = 'OWNER';
CREATE INDEX workspace_members_by_user ON workspace_members (user_id, created_at);
CREATE INDEX workspace_members_by_invited_email ON workspace_members (invited_email) WHERE invited_email IS NOT NULL;
