import type { CheckedAddress, SourceAddress } from '../source-address';
import { SourceError } from '../source-error';

/** A page larger than this is refused: a page is meant to be one of many. */
const maxBodyBytes = 64 * 1024 * 1024;
const timeoutMs = 30_000;
const maxRedirects = 5;

export interface JsonPage {
  url: URL;
  body: unknown;
  headers: Headers;
}

/**
 * GETs a URL and parses its JSON. Every URL, redirects included, is held to the address policy
 * before it is requested; the body is bounded; failures become SourceErrors a user can act on.
 */
export async function fetchJson(url: URL, headers: Record<string, string>, allow: (address: SourceAddress) => Promise<CheckedAddress>, signal?: AbortSignal): Promise<JsonPage> {
  let target = url;
  for (let redirects = 0; ; redirects++) {
    await allow({ kind: 'http', url: target });
    const response = await request(target, headers, signal);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      if (redirects >= maxRedirects) throw new SourceError('bad_response', `Too many redirects from ${shown(url)}`);
      target = new URL(location, target);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      if (response.status === 401 || response.status === 403) throw new SourceError('auth', `Authentication failed: HTTP ${response.status} from ${shown(target)}`);
      if (response.status === 404) throw new SourceError('not_found', `Not found: HTTP 404 from ${shown(target)}`);
      throw new SourceError('bad_response', `HTTP ${response.status} from ${shown(target)}`);
    }
    return { url: target, body: await jsonOf(response, target), headers: response.headers };
  }
}

async function request(url: URL, headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    return await fetch(url, { headers: { accept: 'application/json', ...headers }, redirect: 'manual', signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (error) {
    if (signal?.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (timeout.aborted) throw new SourceError('unreachable', `Host unreachable: no answer from ${url.host} within ${timeoutMs / 1000} s`);
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
