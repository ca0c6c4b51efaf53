import { namedQuery } from '../../store/named-query';
import type { PruneParams } from '../../housekeeping/prune';

export type EmailTokenPurpose = 'verify_email' | 'reset_password' | 'change_email';

export interface EmailTokenRow {
  id: string;
  user_id: string;
  purpose: EmailTokenPurpose;
  email: string;
  expires_at: string;
  used_at: string | null;
}

export const insertEmailToken = namedQuery<{
  id: string;
  user_id: string;
  purpose: EmailTokenPurpose;
  email: string;
  token_hash: string;
  now: string;
  expires_at: string;
}>(
  'email_tokens.insert',
  `INSERT INTO email_tokens (id, user_id, purpose, email, token_hash, created_at, expires_at)
   VALUES (:id, :user_id, :purpose, :email, :token_hash, :now, :expires_at)`,
);

/**
 * Consumes a token in one statement, so that two concurrent uses cannot both succeed. A link serves
 * one of two purposes at most (the verify page confirms both new accounts and address changes).
 */
export const consumeEmailToken = namedQuery<{ token_hash: string; purpose: EmailTokenPurpose; or_purpose: EmailTokenPurpose; now: string }, EmailTokenRow>(
  'email_tokens.consume',
  `UPDATE email_tokens SET used_at = :now
   WHERE token_hash = :token_hash AND purpose IN (:purpose, :or_purpose) AND used_at IS NULL AND expires_at > :now
   RETURNING id, user_id, purpose, email, expires_at, used_at`,
);

/** A newer link replaces the older ones of the same purpose. */
export const expireUserEmailTokens = namedQuery<{ user_id: string; purpose: EmailTokenPurpose; now: string }>(
  'email_tokens.expire_for_user',
  'UPDATE email_tokens SET used_at = :now WHERE user_id = :user_id AND purpose = :purpose AND used_at IS NULL',
);

export const deleteUserEmailTokens = namedQuery<{ user_id: string }>('email_tokens.delete_for_user', 'DELETE FROM email_tokens WHERE user_id = :user_id');

export const findPendingEmailChange = namedQuery<{ user_id: string; now: string }, { email: string }>(
  'email_tokens.find_pending_email_change',
  `SELECT email FROM email_tokens WHERE user_id = :user_id AND purpose = 'change_email' AND used_at IS NULL AND expires_at > :now
   ORDER BY created_at DESC LIMIT 1`,
);

export const pruneEmailTokens = namedQuery<PruneParams>('housekeeping.email_tokens', 'DELETE FROM email_tokens WHERE expires_at < :cutoff');
