import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';
import { ApiError, apiErrorOf } from './errors';

/** The only way the console reaches the service: its public API, typed from /openapi.json. */
export const api = createClient<paths>({ baseUrl: '' });

/** What the client needs from the session: a current access token, and a fresh one after a 401. */
export interface TokenSource {
  accessToken(): Promise<string | undefined>;
  /** A new access token after the service refused the current one; undefined when the session is over. */
  renewAfterRefusal(): Promise<string | undefined>;
}

/**
 * Adds the access token to every call, and when the service answers 401 (the token expired or the
 * session was ended elsewhere) renews it once and sends the same request again.
 */
export function bearerMiddleware(tokens: TokenSource): Middleware {
  const originals = new Map<string, Request>();
  return {
    async onRequest({ request, id, schemaPath }) {
      if (schemaPath.startsWith('/api/v1/auth/console/')) return undefined;
      const token = await tokens.accessToken();
      if (token) request.headers.set('authorization', `Bearer ${token}`);
      originals.set(id, request.clone());
      return request;
    },
    async onResponse({ response, id }) {
      const original = originals.get(id);
      originals.delete(id);
      if (response.status !== 401 || !original || !sessionRefusals.has((await codeOf(response)) ?? '')) return undefined;
      const token = await tokens.renewAfterRefusal();
      if (!token) return undefined;
      original.headers.set('authorization', `Bearer ${token}`);
      return fetch(original);
    },
    onError({ id }) {
      originals.delete(id);
    },
  };
}

/** The 401s that say the access token no longer works (a wrong password is another 401). */
const sessionRefusals = new Set(['NOT_AUTHENTICATED', 'INVALID_TOKEN', 'TOKEN_EXPIRED']);

async function codeOf(response: Response): Promise<string | undefined> {
  try {
    return apiErrorOf(response.status, await response.clone().json()).code;
  } catch {
    return undefined;
  }
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a successful answer; otherwise the service's error as an ApiError. */
export async function unwrap<T>(call: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await call;
  } catch (cause) {
    throw new ApiError(0, 'NETWORK_ERROR', 'The service could not be reached', 'Check the connection and try again.', { cause });
  }
  if (!answer.response.ok) throw apiErrorOf(answer.response.status, answer.error);
  return answer.data as T;
}
