import { namedQuery } from '../../store/named-query';
import type { PruneParams } from '../../housekeeping/prune';

export const insertSessionCode = namedQuery<{ code_hash: string; user_id: string; tokens_ciphertext: string; now: string; expires_at: string }>(
  'session_codes.insert',
  `INSERT INTO session_codes (code_hash, user_id, tokens_ciphertext, created_at, expires_at)
   VALUES (:code_hash, :user_id, :tokens_ciphertext, :now, :expires_at)`,
);

export const consumeSessionCode = namedQuery<{ code_hash: string; now: string }, { user_id: string; tokens_ciphertext: string }>(
  'session_codes.consume',
  `UPDATE session_codes SET used_at = :now
   WHERE code_hash = :code_hash AND used_at IS NULL AND expires_at > :now
   RETURNING user_id, tokens_ciphertext`,
);

export const deleteUserSessionCodes = namedQuery<{ user_id: string }>('session_codes.delete_for_user', 'DELETE FROM session_codes WHERE user_id = :user_id');

export const pruneSessionCodes = namedQuery<PruneParams>('housekeeping.session_codes', 'DELETE FROM session_codes WHERE expires_at < :cutoff');
