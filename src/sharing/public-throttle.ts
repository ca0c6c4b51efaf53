import { AppError } from '../errors/app-error';
import { namedQuery } from '../store/named-query';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { PruneParams } from '../housekeeping/prune';

const windowMs = 60_000;
/** Keys tracked at once per limit; beyond, the least recently seen are forgotten (a bound on memory under a flood of addresses). */
const maxKeys = 100_000;

interface Counter {
  window: number;
  current: number;
  previous: number;
}

/** One count a view takes: against its client address, or against its link. */
export interface ViewCount {
  limit: 'address' | 'link';
  key: string;
}

/** Views of public links per minute, per client address and per link: 429 RATE_LIMITED beyond either. */
export interface ViewLimits {
  take(counts: readonly ViewCount[]): Promise<void>;
}

export interface ViewsPerMinute {
  address: number;
  link: number;
}

/**
 * The limits of a process alone (the embedded default): counted in memory, no store round trip on
 * public views, the service's hottest path.
 */
export class MemoryViewLimits implements ViewLimits {
  private readonly limits: Record<ViewCount['limit'], ViewLimit>;

  constructor(perMinute: ViewsPerMinute, clock: Clock) {
    this.limits = { address: new ViewLimit(perMinute.address, clock, 'from this address'), link: new ViewLimit(perMinute.link, clock, 'of this link') };
  }

  take(counts: readonly ViewCount[]): Promise<void> {
    try {
      for (const { limit, key } of counts) this.limits[limit].take(key);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

const countViews = namedQuery<
  { first_key: string; second_key: string; window_ms: number; previous_ms: number },
  { limit_key: string; views: number; previous: number | null }
>(
  'public_view_counts.count',
  `INSERT INTO public_view_counts (limit_key, window_ms, views) VALUES (:first_key, :window_ms, 1), (:second_key, :window_ms, 1)
   ON CONFLICT (limit_key, window_ms) DO UPDATE SET views = public_view_counts.views + 1
   RETURNING limit_key, views,
     (SELECT p.views FROM public_view_counts p WHERE p.limit_key = public_view_counts.limit_key AND p.window_ms = :previous_ms) AS previous`,
);

export const prunePublicViewCounts = namedQuery<PruneParams>('public_view_counts.prune', 'DELETE FROM public_view_counts WHERE window_ms < :cutoff_ms');

/**
 * The limits of API replicas that share the store: one statement per view counts it against both
 * keys and reads their previous minute, so every replica sees the same counts (in memory, behind N
 * replicas a key got N times its limit). The two rows are always written in the same order (the
 * address's key sorts before the link's), so two views never wait for each other's rows in turn.
 * A view is counted before it is judged, refused ones too: a flood stays refused.
 */
export class StoreViewLimits implements ViewLimits {
  constructor(
    private readonly store: Store,
    private readonly perMinute: ViewsPerMinute,
    private readonly clock: Clock,
  ) {}

  async take(counts: readonly ViewCount[]): Promise<void> {
    const keys = counts.map((count) => ({ ...count, stored: `${count.limit}:${count.key}` })).sort((a, b) => (a.stored < b.stored ? -1 : 1));
    const now = this.clock.now().getTime();
    const window = Math.floor(now / windowMs) * windowMs;
    const [first, second] = keys;
    if (!first) return;
    const rows = await this.store.all(countViews, {
      first_key: first.stored,
      second_key: (second ?? first).stored,
      window_ms: window,
      previous_ms: window - windowMs,
    });
    const elapsed = (now - window) / windowMs;
    for (const { limit, stored } of keys) {
      const row = rows.find((candidate) => candidate.limit_key === stored);
      if (!row) continue;
      const estimate = (row.previous ?? 0) * (1 - elapsed) + row.views;
      if (estimate > this.perMinute[limit]) throw tooManyViews(limit === 'address' ? 'from this address' : 'of this link', elapsed);
    }
  }
}

/**
 * Views per minute per key, over a sliding window estimated from two fixed ones (the previous
 * minute's count weighted by how much of it the window still covers): constant memory per key.
 */
class ViewLimit {
  private readonly counters = new Map<string, Counter>();

  constructor(
    private readonly perMinute: number,
    private readonly clock: Clock,
    private readonly what: string,
  ) {}

  take(key: string): void {
    const now = this.clock.now().getTime();
    const window = Math.floor(now / windowMs);
    let counter = this.counters.get(key);
    if (counter) this.counters.delete(key);
    if (!counter || counter.window < window - 1) counter = { window, current: 0, previous: 0 };
    else if (counter.window === window - 1) counter = { window, current: 0, previous: counter.current };
    this.counters.set(key, counter);
    if (this.counters.size > maxKeys) this.counters.delete(this.counters.keys().next().value!);
    const elapsed = (now % windowMs) / windowMs;
    const estimate = counter.previous * (1 - elapsed) + counter.current;
    if (estimate >= this.perMinute) throw tooManyViews(this.what, elapsed);
    counter.current += 1;
  }
}

function tooManyViews(what: string, elapsed: number): AppError {
  const retryAfter = Math.max(1, Math.ceil(((1 - elapsed) * windowMs) / 1000));
  return new AppError('RATE_LIMITED', `Too many views ${what} in the last minute`, {
    hint: `Retry in ${retryAfter} s.`,
    headers: { 'retry-after': String(retryAfter) },
  });
}
