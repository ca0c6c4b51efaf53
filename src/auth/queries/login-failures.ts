import { namedQuery } from '../../store/named-query';
import type { PruneParams } from '../../housekeeping/prune';

export const recordLoginFailure = namedQuery<{ id: string; scope: string; now: string }>(
  'login_failures.record',
  'INSERT INTO login_failures (id, scope, failed_at) VALUES (:id, :scope, :now)',
);

export const countLoginFailures = namedQuery<{ scope: string; since: string }, { failures: number; oldest: string | null }>(
  'login_failures.count_since',
  'SELECT count(*) AS failures, min(failed_at) AS oldest FROM login_failures WHERE scope = :scope AND failed_at > :since',
);

export const clearLoginFailures = namedQuery<{ scope: string }>('login_failures.clear', 'DELETE FROM login_failures WHERE scope = :scope');

export const pruneLoginFailures = namedQuery<PruneParams>('housekeeping.login_failures', 'DELETE FROM login_failures WHERE failed_at < :cutoff');
