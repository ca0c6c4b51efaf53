import { pinnedFetch } from '../pinned-fetch';
import type { CheckedAddress, SourceAddress } from '../source-address';
import { SourceError } from '../source-error';
import { sourceTimeoutMs } from '../source-timeout';

/** A page larger than this is refused: a page is meant to be one of many. */
const maxBodyBytes = 64 * 1024 * 1024;
const maxRedirects = 5;

export interface JsonPage {
  url: URL;
  body: unknown;
  headers: Headers;
}

/** The headers a connection configures, and the one origin they are for. */
export interface OriginHeaders {
  origin: string;
  headers: Record<string, string>;
}

/**
 * GETs a URL and parses its JSON. Every URL, each redirect hop included, is held to the address policy
 * and requested from the address it checked; the configured headers (the auth header among them) go
 * to the configured origin only, so neither a redirect nor a link to another origin carries them
 * there. The body is bounded; failures become SourceErrors a user can act on.
 */
export async function fetchJson(
  url: URL,
  configured: OriginHeaders,
  allow: (address: SourceAddress) => Promise<CheckedAddress>,
  signal?: AbortSignal,
): Promise<JsonPage> {
  let target = nextHop(url.href, url);
  for (let redirects = 0; ; redirects++) {
    const checked = await allow({ kind: 'http', url: target });
    const headers = target.origin === configured.origin ? configured.headers : {};
    const response = await request(target, checked, headers, signal);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      if (redirects >= maxRedirects) throw new SourceError('bad_response', `Too many redirects from ${shown(url)}`);
      target = nextHop(location, target);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      if (response.status === 401 || response.status === 403)
        throw new SourceError('auth', `Authentication failed: HTTP ${response.status} from ${shown(target)}`);
      if (response.status === 404) throw new SourceError('not_found', `Not found: HTTP 404 from ${shown(target)}`);
      throw new SourceError('bad_response', `HTTP ${response.status} from ${shown(target)}`);
    }
    return { url: target, body: await jsonOf(response, target), headers: response.headers };
  }
}

/** Where a redirect (or a link) sends the request: an HTTP(S) URL, relative to the one that answered. */
function nextHop(location: string, from: URL): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new SourceError('bad_response', `${shown(from)} sent the request to something that is not a URL`);
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:')
    throw new SourceError('bad_response', `${shown(from)} sent the request to a ${next.protocol} URL`);
  return next;
}

async function request(url: URL, checked: CheckedAddress, headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
  const timeout = AbortSignal.timeout(sourceTimeoutMs);
  try {
    return await pinnedFetch(url, checked, {
      headers: { accept: 'application/json', ...headers },
      redirect: 'manual',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (timeout.aborted) throw new SourceError('unreachable', `Host unreachable: no answer from ${url.host} within ${sourceTimeoutMs / 1000} s`);
    if (/certificate|SSL|TLS/i.test(message)) throw new SourceError('tls', `TLS connection to ${url.host} failed: ${message}`);
    throw new SourceError('unreachable', `Host unreachable: ${url.host} (${message})`);
  }
}

async function jsonOf(response: Response, url: URL): Promise<unknown> {
  if (Number(response.headers.get('content-length') ?? 0) > maxBodyBytes) {
    await response.body?.cancel();
    throw new SourceError('bad_response', `The page from ${shown(url)} is larger than ${maxBodyBytes} bytes`);
  }
  const text = await response.text();
  if (text.length > maxBodyBytes) throw new SourceError('bad_response', `The page from ${shown(url)} is larger than ${maxBodyBytes} bytes`);
  try {
    return JSON.parse(text);
  } catch {
    throw new SourceError('bad_response', `The answer from ${shown(url)} is not JSON`);
  }
}

/** A URL for messages: without its query string, which may carry tokens. */
function shown(url: URL): string {
  return `${url.origin}${url.pathname}`;
}
