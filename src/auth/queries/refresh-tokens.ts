import { namedQuery } from '../../store/named-query';
import type { PruneParams } from '../../housekeeping/prune';

export interface RefreshTokenRow {
  id: string;
  user_id: string;
  family_id: string;
  created_at: string;
  expires_at: string;
  rotated_at: string | null;
  revoked_at: string | null;
}

export const insertRefreshToken = namedQuery<{ id: string; user_id: string; family_id: string; token_hash: string; now: string; expires_at: string }>(
  'refresh_tokens.insert',
  `INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, created_at, expires_at)
   VALUES (:id, :user_id, :family_id, :token_hash, :now, :expires_at)`,
);

export const findRefreshToken = namedQuery<{ token_hash: string }, RefreshTokenRow>(
  'refresh_tokens.find_by_hash',
  'SELECT id, user_id, family_id, created_at, expires_at, rotated_at, revoked_at FROM refresh_tokens WHERE token_hash = :token_hash',
);

/** Succeeds for exactly one caller: the guard on rotated_at makes a concurrent second use count as reuse. */
export const markRefreshTokenRotated = namedQuery<{ id: string; now: string }>(
  'refresh_tokens.mark_rotated',
  'UPDATE refresh_tokens SET rotated_at = :now WHERE id = :id AND rotated_at IS NULL AND revoked_at IS NULL',
);

export const revokeRefreshFamily = namedQuery<{ family_id: string; now: string }>(
  'refresh_tokens.revoke_family',
  'UPDATE refresh_tokens SET revoked_at = :now WHERE family_id = :family_id AND revoked_at IS NULL',
);

export const revokeUserRefreshTokens = namedQuery<{ user_id: string; now: string }>(
  'refresh_tokens.revoke_for_user',
  'UPDATE refresh_tokens SET revoked_at = :now WHERE user_id = :user_id AND revoked_at IS NULL',
);

export const deleteUserRefreshTokens = namedQuery<{ user_id: string }>('refresh_tokens.delete_for_user', 'DELETE FROM refresh_tokens WHERE user_id = :user_id');

// Revoked or expired refresh tokens are kept a day past their end so that reuse is still recognised.
export const pruneRefreshTokens = namedQuery<PruneParams>(
  'housekeeping.refresh_tokens',
  'DELETE FROM refresh_tokens WHERE expires_at < :cutoff OR (revoked_at IS NOT NULL AND revoked_at < :cutoff)',
);
