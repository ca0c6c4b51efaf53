import { createHash } from 'node:crypto';
import { AppError } from '../errors/app-error';
import { namedQuery } from '../store/named-query';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { PruneParams } from '../housekeeping/prune';

const claim = namedQuery<{ workspace_id: string; scope: string; key: string; request_hash: string; now: string }>(
  'idempotency.claim',
  `INSERT INTO idempotency_keys (workspace_id, scope, idempotency_key, request_hash, status, created_at)
   VALUES (:workspace_id, :scope, :key, :request_hash, 'in_progress', :now)
   ON CONFLICT (workspace_id, scope, idempotency_key) DO NOTHING`,
);
const find = namedQuery<
  { workspace_id: string; scope: string; key: string },
  { request_hash: string; status: string; response: string | null; created_at: string }
>(
  'idempotency.find',
  'SELECT request_hash, status, response, created_at FROM idempotency_keys WHERE workspace_id = :workspace_id AND scope = :scope AND idempotency_key = :key',
);
const complete = namedQuery<{ workspace_id: string; scope: string; key: string; response: string; now: string }>(
  'idempotency.complete',
  `UPDATE idempotency_keys SET status = 'completed', response = :response, completed_at = :now
   WHERE workspace_id = :workspace_id AND scope = :scope AND idempotency_key = :key`,
);
const release = namedQuery<{ workspace_id: string; scope: string; key: string }>(
  'idempotency.release',
  `DELETE FROM idempotency_keys WHERE workspace_id = :workspace_id AND scope = :scope AND idempotency_key = :key AND status = 'in_progress'`,
);
const retake = namedQuery<{ workspace_id: string; scope: string; key: string; now: string; stale_before: string }>(
  'idempotency.retake',
  `UPDATE idempotency_keys SET created_at = :now
   WHERE workspace_id = :workspace_id AND scope = :scope AND idempotency_key = :key AND status = 'in_progress' AND created_at < :stale_before`,
);
export const deleteWorkspaceIdempotencyKeys = namedQuery<{ workspace_id: string }>(
  'idempotency.delete_for_workspace',
  'DELETE FROM idempotency_keys WHERE workspace_id = :workspace_id',
);

/** An attempt still "in progress" after this is taken to have died with its process. */
const abandonedAfterMs = 5 * 60_000;

export type IdempotentStart<R> =
  | { kind: 'fresh' }
  /** An earlier attempt died part-way; the caller must check whether its write committed. */
  | { kind: 'abandoned' }
  | { kind: 'replay'; response: R };

/**
 * Idempotency keys for writes: the first request with a key runs, its answer is kept 24 hours, and a
 * retry with the same key and the same body gets that answer back without writing again.
 */
export class IdempotencyStore {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async start<R>(workspaceId: string, scope: string, key: string, request: unknown): Promise<IdempotentStart<R>> {
    const ids = { workspace_id: workspaceId, scope, key };
    const requestHash = createHash('sha256').update(JSON.stringify(request)).digest('hex');
    const now = this.clock.now();
    if ((await this.store.run(claim, { ...ids, request_hash: requestHash, now: now.toISOString() })) > 0) return { kind: 'fresh' };
    const existing = await this.store.first(find, ids);
    if (!existing) return this.start(workspaceId, scope, key, request);
    if (existing.request_hash !== requestHash) {
      throw new AppError('CONFLICT', 'This Idempotency-Key was already used with a different request', { hint: 'Use a new key for a new request.' });
    }
    if (existing.status === 'completed') return { kind: 'replay', response: JSON.parse(existing.response!) as R };
    const staleBefore = new Date(now.getTime() - abandonedAfterMs).toISOString();
    if ((await this.store.run(retake, { ...ids, now: now.toISOString(), stale_before: staleBefore })) > 0) return { kind: 'abandoned' };
    throw new AppError('CONFLICT', 'A request with this Idempotency-Key is still being processed', {
      hint: 'Retry in a few seconds.',
      headers: { 'retry-after': '2' },
    });
  }

  async complete(workspaceId: string, scope: string, key: string, response: unknown): Promise<void> {
    await this.store.run(complete, { workspace_id: workspaceId, scope, key, response: JSON.stringify(response), now: this.clock.now().toISOString() });
  }

  /** The attempt failed before writing: the key is free for the client's retry. */
  async abandon(workspaceId: string, scope: string, key: string): Promise<void> {
    await this.store.run(release, { workspace_id: workspaceId, scope, key });
  }
}

export const pruneIdempotencyKeys = namedQuery<PruneParams>(
  'housekeeping.idempotency_keys',
  "DELETE FROM idempotency_keys WHERE status = 'completed' AND completed_at < :cutoff",
);
