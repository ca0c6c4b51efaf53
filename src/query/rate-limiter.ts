import { AppError } from '../errors/app-error';
import { namedQuery } from '../store/named-query';
import type { Store, Transaction } from '../store/store';
import type { Clock } from '../util/clock';
import type { PlanRow } from '../plans/plan-queries';
import { workspacePlan } from '../plans/workspace-plan';
import type { PruneParams } from '../housekeeping/prune';

export const rateWindowMs = 60_000;

export interface RateLimitState {
  plan: string;
  limit: number;
  used: number;
  remaining: number;
  /** When the oldest counted query leaves the window and frees a slot (now, when nothing is counted). */
  resetAt: Date;
}

const windowUsage = namedQuery<{ workspace_id: string; since_ms: number }, { used: number; oldest_ms: number | null }>(
  'rate_limit.window_usage',
  'SELECT count(*) AS used, min(occurred_at_ms) AS oldest_ms FROM rate_limit_events WHERE workspace_id = :workspace_id AND occurred_at_ms > :since_ms',
);
const countQuery = namedQuery<{ id: string; workspace_id: string; now_ms: number }>(
  'rate_limit.count',
  'INSERT INTO rate_limit_events (id, workspace_id, occurred_at_ms) VALUES (:id, :workspace_id, :now_ms)',
);
export const deleteWorkspaceRateEvents = namedQuery<{ workspace_id: string }>(
  'rate_limit.delete_for_workspace',
  'DELETE FROM rate_limit_events WHERE workspace_id = :workspace_id',
);

/**
 * Queries per minute per workspace (the plan's limit) over a sliding 60-second window. The check and
 * the count happen in one transaction under a lock on the workspace, so concurrent requests, also on
 * other API replicas, cannot both take the last slot.
 */
export class RateLimiter {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async consume(workspaceId: string, plan: PlanRow): Promise<RateLimitState> {
    return this.store.transaction((tx) => this.consumeWithin(tx, workspaceId, plan));
  }

  /** Checks and counts one query inside the caller's transaction (a job is counted with its record). */
  async consumeWithin(tx: Transaction, workspaceId: string, plan: PlanRow): Promise<RateLimitState> {
    await tx.lock(`rate-limit:${workspaceId}`);
    const now = this.clock.now().getTime();
    const window = await tx.first(windowUsage, { workspace_id: workspaceId, since_ms: now - rateWindowMs });
    const used = window?.used ?? 0;
    const oldest = window?.oldest_ms ?? now;
    if (used >= plan.queries_per_minute) {
      const state = { plan: plan.id, limit: plan.queries_per_minute, used, remaining: 0, resetAt: new Date(oldest + rateWindowMs) };
      const retryAfter = Math.max(1, Math.ceil((oldest + rateWindowMs - now) / 1000));
      throw new AppError('RATE_LIMITED', `The workspace has used its ${plan.queries_per_minute} queries of the last minute`, {
        hint: `Retry in ${retryAfter} s, or move the workspace to a plan with a higher limit.`,
        headers: { ...rateLimitHeaders(state), 'retry-after': String(retryAfter) },
      });
    }
    await tx.run(countQuery, { id: Bun.randomUUIDv7(), workspace_id: workspaceId, now_ms: now });
    return {
      plan: plan.id,
      limit: plan.queries_per_minute,
      used: used + 1,
      remaining: plan.queries_per_minute - used - 1,
      resetAt: new Date(oldest + rateWindowMs),
    };
  }

  async peek(workspaceId: string): Promise<RateLimitState> {
    const plan = await workspacePlan(this.store, workspaceId);
    const now = this.clock.now().getTime();
    const window = await this.store.first(windowUsage, { workspace_id: workspaceId, since_ms: now - rateWindowMs });
    const used = window?.used ?? 0;
    return {
      plan: plan.id,
      limit: plan.queries_per_minute,
      used,
      remaining: Math.max(0, plan.queries_per_minute - used),
      resetAt: new Date(window?.oldest_ms ? window.oldest_ms + rateWindowMs : now),
    };
  }
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(state.remaining),
    'x-ratelimit-reset': String(Math.ceil(state.resetAt.getTime() / 1000)),
  };
}

// The rate-limit window is a minute; a day of history is plenty for diagnosis.
export const pruneRateLimitEvents = namedQuery<PruneParams>(
  'housekeeping.rate_limit_events',
  'DELETE FROM rate_limit_events WHERE occurred_at_ms < :cutoff_ms',
);
