-- Accounts and everything that authenticates them. Secrets are never stored in clear: passwords as
-- argon2id hashes, bearer tokens and codes as SHA-256 digests, API keys as a digest (lookup) plus an
-- AES-256-GCM ciphertext (reveal), session-code token pairs as ciphertext.

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL,
  name TEXT,
  password_hash TEXT NOT NULL,
  email_verified_at TIMESTAMPTZ,
  -- Raised on password change or reset and on deletion: access tokens carry it and die with it.
  session_epoch INTEGER NOT NULL DEFAULT 0,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  deleted_at TIMESTAMPTZ,
  purge_after TIMESTAMPTZ,
  purged_at TIMESTAMPTZ
);
-- A deleted account frees its address at once; the tombstone keeps its own until purged.
CREATE UNIQUE INDEX users_active_email ON users (email) WHERE deleted_at IS NULL;

CREATE TABLE refresh_tokens (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id),
  -- Every rotation stays in its family; presenting a rotated token again revokes the whole family.
  family_id TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  created_at TIMESTAMPTZ NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  rotated_at TIMESTAMPTZ,
  revoked_at TIMESTAMPTZ
);
CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id),
  name TEXT NOT NULL,
  prefix TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  key_ciphertext TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  expires_at TIMESTAMPTZ,
  last_used_at TIMESTAMPTZ,
  revoked_at TIMESTAMPTZ
);
CREATE INDEX api_keys_user ON api_keys (user_id, created_at);

-- Single-use links sent by e-mail: address verification, password reset, address change.
CREATE TABLE email_tokens (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id),
  purpose TEXT NOT NULL,
  email TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  created_at TIMESTAMPTZ NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  used_at TIMESTAMPTZ
);
CREATE INDEX email_tokens_user ON email_tokens (user_id, purpose);

CREATE TABLE session_codes (
  code_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id),
  tokens_ciphertext TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  used_at TIMESTAMPTZ
);

CREATE TABLE waitlist (
  email TEXT PRIMARY KEY,
  created_at TIMESTAMPTZ NOT NULL
);

-- Failed logins, counted per account and per client address over a sliding window.
CREATE TABLE login_failures (
  id TEXT PRIMARY KEY,
  scope TEXT NOT NULL,
  failed_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX login_failures_scope ON login_failures (scope, failed_at);

-- Every message the service owes someone. The body holds links with secrets, so it is sealed; the
-- row stays until delivered (or, without SMTP, as the record of what would have been sent).
CREATE TABLE mail_outbox (
  id TEXT PRIMARY KEY,
  user_id TEXT,
  to_address TEXT NOT NULL,
  subject TEXT NOT NULL,
  body_ciphertext TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  sent_at TIMESTAMPTZ
);
CREATE INDEX mail_outbox_pending ON mail_outbox (sent_at, created_at);
