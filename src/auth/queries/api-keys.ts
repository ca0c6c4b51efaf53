import { namedQuery } from '../../store/named-query';

export interface ApiKeyRow {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  key_ciphertext: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

const columns = 'id, user_id, name, prefix, key_ciphertext, created_at, expires_at, last_used_at, revoked_at';

export const insertApiKey = namedQuery<{
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  key_ciphertext: string;
  now: string;
  expires_at: string | null;
}>(
  'api_keys.insert',
  `INSERT INTO api_keys (id, user_id, name, prefix, key_hash, key_ciphertext, created_at, expires_at)
   VALUES (:id, :user_id, :name, :prefix, :key_hash, :key_ciphertext, :now, :expires_at)`,
);

export const findApiKeyByHash = namedQuery<{ key_hash: string }, ApiKeyRow>(
  'api_keys.find_by_hash',
  `SELECT ${columns} FROM api_keys WHERE key_hash = :key_hash`,
);

export const findUserApiKey = namedQuery<{ id: string; user_id: string }, ApiKeyRow>(
  'api_keys.find_for_user',
  `SELECT ${columns} FROM api_keys WHERE id = :id AND user_id = :user_id AND revoked_at IS NULL`,
);

export const listUserApiKeys = namedQuery<{ user_id: string; limit: number; offset: number }, ApiKeyRow>(
  'api_keys.list_for_user',
  `SELECT ${columns} FROM api_keys WHERE user_id = :user_id AND revoked_at IS NULL
   ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset`,
);

export const countUserApiKeys = namedQuery<{ user_id: string }, { total: number }>(
  'api_keys.count_for_user',
  'SELECT count(*) AS total FROM api_keys WHERE user_id = :user_id AND revoked_at IS NULL',
);

/** Written at most once a minute per key: last use needs no finer grain than that. */
export const touchApiKey = namedQuery<{ id: string; now: string; stale_before: string }>(
  'api_keys.touch',
  'UPDATE api_keys SET last_used_at = :now WHERE id = :id AND (last_used_at IS NULL OR last_used_at < :stale_before)',
);

export const revokeApiKey = namedQuery<{ id: string; user_id: string; now: string }>(
  'api_keys.revoke',
  'UPDATE api_keys SET revoked_at = :now WHERE id = :id AND user_id = :user_id AND revoked_at IS NULL',
);

export const revokeUserApiKeys = namedQuery<{ user_id: string; now: string }>(
  'api_keys.revoke_for_user',
  'UPDATE api_keys SET revoked_at = :now WHERE user_id = :user_id AND revoked_at IS NULL',
);

export const deleteUserApiKeys = namedQuery<{ user_id: string }>('api_keys.delete_for_user', 'DELETE FROM api_keys WHERE user_id = :user_id');
