import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

interface CachedToken {
  access_token: string;
  /** Milliseconds since the epoch. */
  expires_at: number;
}

/**
 * Access tokens exchanged for an API key, kept between runs (mode 0600) so that a script calling the
 * CLI in a loop does not open a new session on the service each time. Keyed by a digest of the
 * service's address and the key: the key itself is not written here.
 */
export class TokenCache {
  constructor(private readonly path: string) {}

  static forEnvironment(env: NodeJS.ProcessEnv = process.env): TokenCache {
    const base = env.XDG_CACHE_HOME?.trim() ? env.XDG_CACHE_HOME : join(env.HOME ?? homedir(), '.cache');
    return new TokenCache(join(base, 'oxbow', 'access-tokens.json'));
  }

  get(url: string, apiKey: string): string | undefined {
    const entry = this.read()[slot(url, apiKey)];
    // A minute's margin: a token must outlive the request it is sent with.
    return entry && entry.expires_at - 60_000 > Date.now() ? entry.access_token : undefined;
  }

  put(url: string, apiKey: string, accessToken: string, expiresInSeconds: number): void {
    const entries = this.read();
    const now = Date.now();
    for (const [key, entry] of Object.entries(entries)) if (entry.expires_at < now) delete entries[key];
    entries[slot(url, apiKey)] = { access_token: accessToken, expires_at: now + expiresInSeconds * 1000 };
    this.write(entries);
  }

  forget(url: string, apiKey: string): void {
    const entries = this.read();
    delete entries[slot(url, apiKey)];
    this.write(entries);
  }

  private read(): Record<string, CachedToken> {
    if (!existsSync(this.path)) return {};
    try {
      return JSON.parse(readFileSync(this.path, 'utf8')) as Record<string, CachedToken>;
    } catch {
      return {};
    }
  }

  private write(entries: Record<string, CachedToken>): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(entries), { mode: 0o600 });
    renameSync(temporary, this.path);
  }
}

function slot(url: string, apiKey: string): string {
  return createHash('sha256').update(`${url}\n${apiKey}`).digest('hex');
}
