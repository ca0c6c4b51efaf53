import { namedQuery } from '../store/named-query';

export type PruneParams = { now: string; cutoff: string; cutoff_ms: number };

// Rows that have done their job. Each query removes what can no longer matter as of :cutoff.
export const pruneQueries = [
  // The rate-limit window is a minute; a day of history is plenty for diagnosis.
  namedQuery<PruneParams>('housekeeping.rate_limit_events', 'DELETE FROM rate_limit_events WHERE occurred_at_ms < :cutoff_ms'),
  namedQuery<PruneParams>(
    'housekeeping.idempotency_keys',
    "DELETE FROM idempotency_keys WHERE status = 'completed' AND completed_at < :cutoff",
  ),
  namedQuery<PruneParams>('housekeeping.login_failures', 'DELETE FROM login_failures WHERE failed_at < :cutoff'),
  namedQuery<PruneParams>('housekeeping.session_codes', 'DELETE FROM session_codes WHERE expires_at < :cutoff'),
  namedQuery<PruneParams>('housekeeping.email_tokens', 'DELETE FROM email_tokens WHERE expires_at < :cutoff'),
  // Revoked or expired refresh tokens are kept a day past their end so that reuse is still recognised.
  namedQuery<PruneParams>(
    'housekeeping.refresh_tokens',
    'DELETE FROM refresh_tokens WHERE expires_at < :cutoff OR (revoked_at IS NOT NULL AND revoked_at < :cutoff)',
  ),
  namedQuery<PruneParams>('housekeeping.sent_mail', 'DELETE FROM mail_outbox WHERE sent_at IS NOT NULL AND sent_at < :cutoff'),
];

/** How long ended rows stay before the hourly sweep removes them. */
export const pruneGraceMs = 24 * 3_600_000;
