import { AppError } from '../errors/app-error';
import type { Clock } from '../util/clock';

const windowMs = 60_000;
/** Keys tracked at once per limit; beyond, the least recently seen are forgotten (a bound on memory under a flood of addresses). */
const maxKeys = 100_000;

interface Counter {
  window: number;
  current: number;
  previous: number;
}

/**
 * Views per minute per key, over a sliding window estimated from two fixed ones (the previous
 * minute's count weighted by how much of it the window still covers): constant memory per key and
 * no store round trip, which public views, the service's hottest path, cannot afford. Counted per
 * process: behind N API replicas a key gets up to N times the limit, so a proxy in front limits too.
 */
export class ViewLimit {
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
    if (estimate >= this.perMinute) {
      const retryAfter = Math.max(1, Math.ceil(((1 - elapsed) * windowMs) / 1000));
      throw new AppError('RATE_LIMITED', `Too many views ${this.what} in the last minute`, { hint: `Retry in ${retryAfter} s.`, headers: { 'retry-after': String(retryAfter) } });
    }
    counter.current += 1;
  }
}
