import type { ConnectorCredentials, OAuthSession } from '../credentials';
import { pinnedFetch } from '../pinned-fetch';
import type { CheckedAddress, SourceAddress } from '../source-address';
import { SourceError } from '../source-error';
import { sourceTimeoutMs } from '../source-timeout';

export interface CrmRequest {
  method?: 'GET' | 'POST';
  /** Relative to the API base; an absolute path (`/services/data/…`, as `nextRecordsUrl` gives it) is taken from the base's origin. */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
}

export interface CrmApiOptions {
  /** The provider's name for messages. */
  provider: string;
  credentials: ConnectorCredentials;
  allow: (address: SourceAddress) => Promise<CheckedAddress>;
  signal?: AbortSignal;
  /** Answers of 429 (and 503 with Retry-After) waited out before giving up. */
  maxRateLimitWaits?: number;
  /** The longest single wait a Retry-After may ask for. */
  maxWaitMs?: number;
}

/** A provider's words for a request the token's scopes or the user's permissions do not cover. */
const missingPermission = new Set(['MISSING_SCOPES', 'INSUFFICIENT_ACCESS', 'INSUFFICIENT_ACCESS_OR_READONLY']);
const maxBodyBytes = 64 * 1024 * 1024;

/**
 * The HTTP side of a CRM connector: every request carries a current access token (refreshed by the
 * token source before it expires, and once more when the provider answers 401 anyway: a token revoked
 * or expired early), is held to the address policy, and waits out rate limits (429 with Retry-After,
 * else exponential backoff) instead of failing the sync.
 */
export class CrmApi {
  private session: OAuthSession | undefined;

  constructor(private readonly options: CrmApiOptions) {}

  async json(request: CrmRequest): Promise<unknown> {
    const { provider, maxRateLimitWaits = 8, maxWaitMs = 60_000 } = this.options;
    let renewed = false;
    for (let waits = 0; ;) {
      const session = await this.current();
      const response = await this.send(session, request);
      if (response.status === 401 && !renewed) {
        await response.body?.cancel();
        renewed = true;
        this.session = await this.oauthSession(session.accessToken);
        continue;
      }
      const retryAfter = response.headers.get('retry-after');
      if (response.status === 429 || (response.status === 503 && retryAfter !== null)) {
        await response.body?.cancel();
        if (waits >= maxRateLimitWaits)
          throw new SourceError('unreachable', `${provider} kept answering ${response.status} (rate limited) after ${waits} waits`);
        await this.sleep(Math.min(maxWaitMs, waitMs(retryAfter, waits)));
        waits += 1;
        continue;
      }
      if (!response.ok) throw await failureOf(provider, response);
      return bodyOf(provider, response);
    }
  }

  /** The token the next request uses: asked of the source each time, which refreshes it when it nears expiry. */
  private async current(): Promise<OAuthSession> {
    this.session = await this.oauthSession();
    return this.session;
  }

  private oauthSession(rejected?: string): Promise<OAuthSession> {
    const { credentials } = this.options;
    if (!credentials.oauthSession) throw new SourceError('auth', `The ${this.options.provider} connection has no OAuth credentials`);
    return credentials.oauthSession(rejected);
  }

  private async send(session: OAuthSession, request: CrmRequest): Promise<Response> {
    const { base, url } = this.urlOf(session, request);
    // The token goes only to the API it was issued for: a link in an answer cannot send it elsewhere.
    if (url.origin !== base.origin) throw new SourceError('bad_response', `${this.options.provider} answered a link to another host (${url.host})`);
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
    const checked = await this.options.allow({ kind: 'http', url });
    const timeout = AbortSignal.timeout(sourceTimeoutMs);
    const signal = this.options.signal ? AbortSignal.any([this.options.signal, timeout]) : timeout;
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${session.accessToken}` };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await pinnedFetch(url, checked, {
        method: request.method ?? 'GET',
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        redirect: 'error',
        signal,
      });
    } catch (error) {
      if (this.options.signal?.aborted) throw error;
      if (timeout.aborted) throw new SourceError('unreachable', `${this.options.provider} did not answer within ${sourceTimeoutMs / 1000} s`);
      throw new SourceError('unreachable', `${this.options.provider} unreachable: ${url.host} (${error instanceof Error ? error.message : String(error)})`);
    }
  }

  /** The API base the token came with (an HTTP(S) URL), and the request's URL on it. */
  private urlOf(session: OAuthSession, request: CrmRequest): { base: URL; url: URL } {
    try {
      const base = new URL(session.apiBase.endsWith('/') ? session.apiBase : `${session.apiBase}/`);
      if (base.protocol === 'http:' || base.protocol === 'https:') return { base, url: new URL(request.path.replace(/^\/{2,}/, '/'), base) };
    } catch {
      // Reported below.
    }
    throw new SourceError('bad_response', `${this.options.provider} gave an API address or a link that is not an HTTP URL`);
  }

  private sleep(ms: number): Promise<void> {
    const { signal } = this.options;
    signal?.throwIfAborted();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** Retry-After in seconds or as an HTTP date; without one, 1 s doubling per wait. */
function waitMs(retryAfter: string | null, waits: number): number {
  if (retryAfter !== null) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const at = Date.parse(retryAfter);
    if (Number.isFinite(at)) return Math.max(0, at - Date.now());
  }
  return 1000 * 2 ** waits;
}

async function bodyOf(provider: string, response: Response): Promise<unknown> {
  const text = await response.text();
  if (text.length > maxBodyBytes) throw new SourceError('bad_response', `An answer of ${provider} is larger than ${maxBodyBytes} bytes`);
  try {
    return JSON.parse(text);
  } catch {
    throw new SourceError('bad_response', `${provider} answered something that is not JSON`);
  }
}

/** The provider's own words for a refusal (HubSpot `{message}`, Salesforce `[{message, errorCode}]`). */
async function failureOf(provider: string, response: Response): Promise<SourceError> {
  const text = (await response.text()).slice(0, 4_000);
  let detail = '';
  let code: string | undefined;
  try {
    const body = JSON.parse(text) as unknown;
    const first = (Array.isArray(body) ? body[0] : body) as { message?: unknown; errorCode?: unknown; category?: unknown } | undefined;
    code = [first?.errorCode, first?.category].find((value): value is string => typeof value === 'string');
    if (first && typeof first.message === 'string') detail = `: ${code ? `${code} ` : ''}${first.message.slice(0, 500)}`;
  } catch {
    // Not JSON: the status says enough.
  }
  const message = `${provider} answered HTTP ${response.status}${detail}`;
  // The token is good but lacks what this one request needs (HubSpot's MISSING_SCOPES, Salesforce's INSUFFICIENT_ACCESS): a stream the connection cannot read.
  if (response.status === 403 && code !== undefined && missingPermission.has(code)) return new SourceError('not_permitted', message);
  if (response.status === 401 || response.status === 403) return new SourceError('auth', message);
  if (response.status === 404) return new SourceError('not_found', message);
  if (response.status >= 500) return new SourceError('unreachable', message);
  return new SourceError('bad_response', message);
}
