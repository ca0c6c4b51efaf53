import type { PruneParams } from '../housekeeping/prune';
import { namedQuery } from '../store/named-query';

export interface OAuthAttemptRow {
  id: string;
  state_hash: string;
  provider: string;
  user_id: string;
  workspace_id: string;
  connection_name: string;
  verifier_sealed: string;
  code_sealed: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  connection_id: string | null;
  error_code: string | null;
}

export type OAuthTokenRow = {
  connection_id: string;
  workspace_id: string;
  provider: string;
  tokens_sealed: string;
  instance_url: string | null;
  refresh_at: string;
  expires_at: string;
  updated_at: string;
};

type InWorkspace = { workspace_id: string };

export const insertOAuthAttempt = namedQuery<Omit<OAuthAttemptRow, 'code_sealed' | 'used_at' | 'connection_id' | 'error_code'>>(
  'oauth_attempts.insert',
  `INSERT INTO oauth_attempts (id, state_hash, provider, user_id, workspace_id, connection_name, verifier_sealed, created_at, expires_at)
   VALUES (:id, :state_hash, :provider, :user_id, :workspace_id, :connection_name, :verifier_sealed, :created_at, :expires_at)`,
);
export const findOAuthAttemptByState = namedQuery<{ state_hash: string }, OAuthAttemptRow>(
  'oauth_attempts.find_by_state',
  'SELECT * FROM oauth_attempts WHERE state_hash = :state_hash',
);
export const findOAuthAttempt = namedQuery<{ id: string }, OAuthAttemptRow>('oauth_attempts.find', 'SELECT * FROM oauth_attempts WHERE id = :id');
/** The one use of a state: only an unused, unexpired attempt of that provider is claimed (touches one row or none). */
export const claimOAuthAttempt = namedQuery<{ id: string; provider: string; now: string; code_sealed: string | null; error_code: string | null }>(
  'oauth_attempts.claim',
  `UPDATE oauth_attempts SET used_at = :now, code_sealed = :code_sealed, error_code = :error_code
   WHERE id = :id AND provider = :provider AND used_at IS NULL AND expires_at > :now`,
);
/** The code is spent once exchanged: it is dropped, and the attempt says how it ended. */
export const endOAuthAttempt = namedQuery<{ id: string; connection_id: string | null; error_code: string | null }>(
  'oauth_attempts.end',
  'UPDATE oauth_attempts SET code_sealed = NULL, connection_id = :connection_id, error_code = :error_code WHERE id = :id',
);
export const pruneOAuthAttempts = namedQuery<PruneParams>('housekeeping.oauth_attempts', 'DELETE FROM oauth_attempts WHERE expires_at < :cutoff');

export const upsertOAuthTokens = namedQuery<OAuthTokenRow>(
  'oauth_tokens.upsert',
  `INSERT INTO oauth_tokens (connection_id, workspace_id, provider, tokens_sealed, instance_url, refresh_at, expires_at, updated_at)
   VALUES (:connection_id, :workspace_id, :provider, :tokens_sealed, :instance_url, :refresh_at, :expires_at, :updated_at)
   ON CONFLICT (connection_id) DO UPDATE SET provider = excluded.provider, tokens_sealed = excluded.tokens_sealed, instance_url = excluded.instance_url,
     refresh_at = excluded.refresh_at, expires_at = excluded.expires_at, updated_at = excluded.updated_at`,
);
/** Takes the row's refresh lease unless another holder's lease still runs; touches one row (taken) or none. */
export const claimRefreshLease = namedQuery<{ connection_id: string; owner: string; until: string; now: string }>(
  'oauth_tokens.claim_refresh_lease',
  `UPDATE oauth_tokens SET refresh_lease_owner = :owner, refresh_lease_until = :until
   WHERE connection_id = :connection_id AND (refresh_lease_until IS NULL OR refresh_lease_until < :now)`,
);
export const releaseRefreshLease = namedQuery<{ connection_id: string; owner: string }>(
  'oauth_tokens.release_refresh_lease',
  'UPDATE oauth_tokens SET refresh_lease_owner = NULL, refresh_lease_until = NULL WHERE connection_id = :connection_id AND refresh_lease_owner = :owner',
);
export const findOAuthTokens = namedQuery<{ connection_id: string }, OAuthTokenRow>(
  'oauth_tokens.find',
  'SELECT * FROM oauth_tokens WHERE connection_id = :connection_id',
);
/** Tokens of connections that were deleted: the hourly sweep removes them. */
export const pruneOrphanOAuthTokens = namedQuery<PruneParams>(
  'housekeeping.oauth_tokens',
  'DELETE FROM oauth_tokens WHERE NOT EXISTS (SELECT 1 FROM connections WHERE connections.id = oauth_tokens.connection_id)',
);
export const deleteWorkspaceOAuthAttempts = namedQuery<InWorkspace>(
  'oauth_attempts.delete_for_workspace',
  'DELETE FROM oauth_attempts WHERE workspace_id = :workspace_id',
);
export const deleteWorkspaceOAuthTokens = namedQuery<InWorkspace>(
  'oauth_tokens.delete_for_workspace',
  'DELETE FROM oauth_tokens WHERE workspace_id = :workspace_id',
);

/** A connection's status as its authorization decides it: needs_reauth when a refresh is refused, active once bound again. */
export const setConnectionAuthStatus = namedQuery<{ id: string; status: 'active' | 'needs_reauth'; now: string }>(
  'oauth.set_connection_status',
  'UPDATE connections SET status = :status, updated_at = :now WHERE id = :id',
);
export const findConnectionOfName = namedQuery<InWorkspace & { name: string }, { id: string; connector_type: string; status: string }>(
  'oauth.find_connection_by_name',
  'SELECT id, connector_type, status FROM connections WHERE workspace_id = :workspace_id AND name = :name',
);
