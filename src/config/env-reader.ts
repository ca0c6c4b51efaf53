import { parseDuration } from '../util/duration';

export type EnvSource = Record<string, string | undefined>;

/** Raised at boot when the environment holds bad values; lists every problem, each naming its variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

/**
 * Reads typed values out of an environment, collecting every problem instead of stopping at the first,
 * so that one boot attempt reports everything that needs fixing.
 */
export class EnvReader {
  private readonly problems: string[] = [];

  constructor(private readonly source: EnvSource) {}

  raw(name: string): string | undefined {
    const value = this.source[name]?.trim();
    return value === '' ? undefined : value;
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  optionalString(name: string): string | undefined {
    return this.raw(name);
  }

  integer(name: string, fallback: number, bounds: { min?: number; max?: number } = {}): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parsed = Number(value);
    const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = bounds;
    if (!/^-?\d+$/.test(value) || parsed < min || parsed > max) {
      return this.reject(name, `must be an integer between ${min} and ${max}, got "${value}"`, fallback);
    }
    return parsed;
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.raw(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (['true', '1', 'yes'].includes(value)) return true;
    if (['false', '0', 'no'].includes(value)) return false;
    return this.reject(name, `must be true or false, got "${value}"`, fallback);
  }

  oneOf<const T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(value)) {
      return this.reject(name, `must be one of ${allowed.join(', ')}, got "${value}"`, fallback);
    }
    return value as T;
  }

  /** A duration such as `30d`, `15m`, `90s` or `500ms`, returned in milliseconds. */
  duration(name: string, fallback: string): number {
    const value = this.raw(name) ?? fallback;
    const parsed = parseDuration(value);
    if (parsed === undefined) return this.reject(name, `must be a duration such as 30d, 12h, 15m, 90s or 500ms, got "${value}"`, 0);
    return parsed;
  }

  url(name: string, fallback: string, protocols: readonly string[]): URL {
    const value = this.raw(name) ?? fallback;
    try {
      const url = new URL(value);
      if (!protocols.includes(url.protocol)) {
        return this.reject(name, `must use one of ${protocols.join(', ')}, got "${url.protocol}"`, new URL(fallback));
      }
      return url;
    } catch {
      return this.reject(name, `must be a URL, got "${redactCredentials(value)}"`, new URL(fallback));
    }
  }

  optionalUrl(name: string, protocols: readonly string[]): URL | undefined {
    const value = this.raw(name);
    return value === undefined ? undefined : this.url(name, value, protocols);
  }

  reject<T>(name: string, problem: string, fallback: T): T {
    this.problems.push(`${name} ${problem}`);
    return fallback;
  }

  /** Throws a ConfigError when any read failed. */
  finish(): void {
    if (this.problems.length > 0) throw new ConfigError(this.problems);
  }
}

function redactCredentials(value: string): string {
  return value.replace(/\/\/[^@/]*@/, '//***@');
}
