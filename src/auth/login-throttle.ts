import { AppError } from '../errors/app-error';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import { clearLoginFailures, countLoginFailures, recordLoginFailure } from './queries/login-failures';

export interface ThrottleRule {
  maxFailures: number;
  windowMs: number;
}

/** Per account: enough for typos, too few to guess. Per address: room for a shared office network. */
export const loginThrottleRules = {
  account: { maxFailures: 5, windowMs: 15 * 60_000 },
  address: { maxFailures: 30, windowMs: 15 * 60_000 },
} satisfies Record<string, ThrottleRule>;

/**
 * Counts failed logins per account and per client address in a sliding window (in the metadata store,
 * so every API replica sees the same counts) and refuses with 429 once either is exhausted.
 */
export class LoginThrottle {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly rules = loginThrottleRules,
  ) {}

  async assertAllowed(email: string, address: string | undefined): Promise<void> {
    const checks: [string, ThrottleRule][] = [[accountScope(email), this.rules.account]];
    if (address) checks.push([addressScope(address), this.rules.address]);
    for (const [scope, rule] of checks) {
      const now = this.clock.now().getTime();
      const { failures, oldest } = (await this.store.first(countLoginFailures, { scope, since: new Date(now - rule.windowMs).toISOString() })) ?? {
        failures: 0,
        oldest: null,
      };
      if (failures >= rule.maxFailures && oldest) {
        const retryAfter = Math.max(1, Math.ceil((new Date(oldest).getTime() + rule.windowMs - now) / 1000));
        throw new AppError('RATE_LIMITED', 'Too many failed login attempts', {
          hint: `Try again in ${retryAfter} seconds, or reset your password.`,
          headers: { 'retry-after': String(retryAfter) },
        });
      }
    }
  }

  async recordFailure(email: string, address: string | undefined): Promise<void> {
    const now = this.clock.now().toISOString();
    const scopes = address ? [accountScope(email), addressScope(address)] : [accountScope(email)];
    for (const scope of scopes) await this.store.run(recordLoginFailure, { id: Bun.randomUUIDv7(), scope, now });
  }

  async recordSuccess(email: string): Promise<void> {
    await this.store.run(clearLoginFailures, { scope: accountScope(email) });
  }
}

const accountScope = (email: string) => `account:${email}`;
const addressScope = (address: string) => `address:${address}`;
