import { CliError, exitCodeOfStatus, exitCodes } from '../exit-codes';
import type { TokenCache } from './token-cache';

export interface RequestOptions {
  json?: unknown;
  body?: string | Uint8Array<ArrayBuffer> | Blob;
  query?: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
  /** `token` (the default): an access token exchanged for the key; `key`: the key itself; `none`. */
  auth?: 'token' | 'key' | 'none';
  /** Answers that are no error for this call (a 409 the caller handles). */
  accept?: number[];
  signal?: AbortSignal;
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

interface ErrorEnvelope {
  detail?: { error?: { code?: string; message?: string; hint?: string } } | { loc?: (string | number)[]; msg?: string }[];
}

/**
 * The service's HTTP API under `<url>/api/v1`. Most endpoints take an access token, which the client
 * gets for its API key from `POST /auth/session-token` and keeps in the token cache until it expires.
 * An error answer becomes a CliError with the API's message, hint and code, and the exit status its
 * kind calls for.
 */
export class ApiClient {
  private accessToken: string | undefined;

  constructor(
    readonly url: string,
    private readonly apiKey: string | undefined,
    private readonly tokens: TokenCache,
  ) {}

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const auth = options.auth ?? 'token';
    let response = await this.send(method, path, options, auth === 'token' ? await this.token() : undefined);
    if (response.status === 401 && auth === 'token' && this.apiKey) {
      // A cached token the service no longer takes (its session ended): exchange the key once more.
      this.tokens.forget(this.url, this.apiKey);
      this.accessToken = undefined;
      response = await this.send(method, path, options, await this.token());
    }
    if (!response.ok && !options.accept?.includes(response.status)) throw await errorOf(response, method, path);
    const text = response.status === 204 ? '' : await response.text();
    const type = response.headers.get('content-type') ?? '';
    const body = (text && type.includes('json') ? JSON.parse(text) : text) as T;
    return { status: response.status, headers: response.headers, body };
  }

  async get<T>(path: string, query?: RequestOptions['query']): Promise<T> {
    return (await this.request<T>('GET', path, { query })).body;
  }

  async post<T>(path: string, json?: unknown, options: RequestOptions = {}): Promise<T> {
    return (await this.request<T>('POST', path, { ...options, ...(json === undefined ? {} : { json }) })).body;
  }

  private async send(method: string, path: string, options: RequestOptions, token: string | undefined): Promise<Response> {
    const url = new URL(`${this.url}/api/v1${path}`);
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers = new Headers(options.headers);
    headers.set('user-agent', 'oxbow-cli');
    if (token) headers.set('authorization', `Bearer ${token}`);
    if (options.auth === 'key' && this.apiKey) headers.set('x-api-key', this.apiKey);
    let body = options.body;
    if (options.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(options.json);
    }
    try {
      return await fetch(url, { method, headers, body, signal: options.signal });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new CliError(
        `Could not reach ${this.url}: ${(error as Error).message}`,
        exitCodes.unavailable,
        'Check the address (--profile, OXBOW_URL) and that the service runs.',
      );
    }
  }

  private async token(): Promise<string> {
    if (this.accessToken) return this.accessToken;
    if (!this.apiKey) throw new CliError('Not logged in', exitCodes.auth, 'Run `oxbow login`, or set OXBOW_API_KEY.');
    const cached = this.tokens.get(this.url, this.apiKey);
    if (cached) return (this.accessToken = cached);
    const response = await this.send('POST', '/auth/session-token', { auth: 'key' }, undefined);
    if (!response.ok) {
      const error = await errorOf(response, 'POST', '/auth/session-token');
      throw new CliError(
        `The API key was refused: ${error.message}`,
        exitCodes.auth,
        'Run `oxbow login` again, or check OXBOW_API_KEY.',
        error.code,
        response.status,
      );
    }
    const pair = (await response.json()) as { access_token: string; expires_in: number };
    this.tokens.put(this.url, this.apiKey, pair.access_token, pair.expires_in);
    return (this.accessToken = pair.access_token);
  }
}

async function errorOf(response: Response, method: string, path: string): Promise<CliError> {
  const text = await response.text();
  let envelope: ErrorEnvelope = {};
  try {
    envelope = JSON.parse(text) as ErrorEnvelope;
  } catch {
    // Not the service's envelope (a proxy's page): its status speaks.
  }
  const code = exitCodeOfStatus(response.status);
  const detail = envelope.detail;
  if (Array.isArray(detail)) {
    const issues = detail.map((issue) => `${(issue.loc ?? []).join('.')}: ${issue.msg ?? 'invalid'}`);
    return new CliError(`Invalid request: ${issues.join('; ')}`, code, undefined, 'VALIDATION_ERROR', response.status);
  }
  const error = detail?.error;
  if (error?.message) return new CliError(error.message, code, error.hint, error.code, response.status);
  return new CliError(`${method} ${path} answered ${response.status} ${response.statusText}`.trim(), code, undefined, undefined, response.status);
}
