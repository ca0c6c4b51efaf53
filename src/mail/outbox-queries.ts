import { namedQuery } from '../store/named-query';
import type { PruneParams } from '../housekeeping/prune';

export interface OutboxRow {
  id: string;
  user_id: string | null;
  to_address: string;
  subject: string;
  body_ciphertext: string;
  created_at: string;
  attempts: number;
  sent_at: string | null;
}

export const insertOutboxMail = namedQuery<{ id: string; user_id: string | null; to_address: string; subject: string; body_ciphertext: string; now: string }>(
  'mail_outbox.insert',
  `INSERT INTO mail_outbox (id, user_id, to_address, subject, body_ciphertext, created_at)
   VALUES (:id, :user_id, :to_address, :subject, :body_ciphertext, :now)`,
);

export const findOutboxMail = namedQuery<{ id: string }, OutboxRow>(
  'mail_outbox.find',
  'SELECT id, user_id, to_address, subject, body_ciphertext, created_at, attempts, sent_at FROM mail_outbox WHERE id = :id',
);

export const markOutboxMailSent = namedQuery<{ id: string; now: string }>(
  'mail_outbox.mark_sent',
  'UPDATE mail_outbox SET sent_at = :now, attempts = attempts + 1, last_error = NULL WHERE id = :id AND sent_at IS NULL',
);

export const recordOutboxFailure = namedQuery<{ id: string; error: string }>(
  'mail_outbox.record_failure',
  'UPDATE mail_outbox SET attempts = attempts + 1, last_error = :error WHERE id = :id',
);

/** Unsent mail old enough that its delivery workflow should exist; the sweep makes sure it does. */
export const listStrandedOutboxMail = namedQuery<{ created_before: string; created_after: string; limit: number }, { id: string }>(
  'mail_outbox.list_stranded',
  `SELECT id FROM mail_outbox WHERE sent_at IS NULL AND created_at < :created_before AND created_at > :created_after
   ORDER BY created_at LIMIT :limit`,
);

export const listRecentOutboxMail = namedQuery<{ limit: number }, OutboxRow>(
  'mail_outbox.list_recent',
  `SELECT id, user_id, to_address, subject, body_ciphertext, created_at, attempts, sent_at FROM mail_outbox
   ORDER BY created_at DESC LIMIT :limit`,
);

/** Purging an account removes the mail written to it as well. */
export const deleteUserOutboxMail = namedQuery<{ user_id: string }>('mail_outbox.delete_for_user', 'DELETE FROM mail_outbox WHERE user_id = :user_id');

export const pruneSentMail = namedQuery<PruneParams>('housekeeping.sent_mail', 'DELETE FROM mail_outbox WHERE sent_at IS NOT NULL AND sent_at < :cutoff');
