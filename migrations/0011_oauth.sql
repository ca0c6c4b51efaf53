-- CRM connections authorize through OAuth 2.0. An authorization attempt is what authorize hands out: its
-- state is kept only as a SHA-256 (the state itself travels through the browser), good once and for
-- ten minutes, bound to the user, workspace, provider and connection name, with the PKCE verifier
-- sealed. The callback marks it used and seals the provider's code on it for the workflow that
-- exchanges it. A connection's tokens live sealed (AES-256-GCM, bound to the connection's id) apart
-- from its spec, with the times their refresh is due and they expire.

CREATE TABLE oauth_attempts (
  id TEXT PRIMARY KEY,
  state_hash TEXT NOT NULL,
  provider TEXT NOT NULL,
  user_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  connection_name TEXT NOT NULL,
  verifier_sealed TEXT NOT NULL,
  code_sealed TEXT,
  created_at TIMESTAMPTZ NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  used_at TIMESTAMPTZ,
  -- How the attempt ended: the connection it created or bound, or the error code the callback redirected with.
  connection_id TEXT,
  error_code TEXT
);
CREATE UNIQUE INDEX oauth_attempts_state ON oauth_attempts (state_hash);
CREATE INDEX oauth_attempts_expires ON oauth_attempts (expires_at);
CREATE INDEX oauth_attempts_workspace ON oauth_attempts (workspace_id);

CREATE TABLE oauth_tokens (
  connection_id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  provider TEXT NOT NULL,
  -- {access_token, refresh_token} sealed.
  tokens_sealed TEXT NOT NULL,
  -- Where the provider's API answers for these tokens (Salesforce's instance_url); NULL: the configured base.
  instance_url TEXT,
  refresh_at TIMESTAMPTZ NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX oauth_tokens_workspace ON oauth_tokens (workspace_id);
