import { appendHeaderToken, withHeaders, wrapResponse } from './wrap-response';

export interface CorsOptions {
  /** Exact origins (`https://app.example.com`) whose pages may call the API; empty: none. */
  origins: readonly string[];
  /** The methods served on a path (a preflight for any other is not answered). */
  allowedMethods: (path: string) => string[];
}

/** The request headers a page may send: credentials go in Authorization or X-API-Key, never in cookies. */
const allowedRequestHeaders = ['authorization', 'content-type', 'content-encoding', 'x-api-key', 'idempotency-key', 'x-request-id'];
/** The answer headers a page may read besides the simple ones. */
const exposedHeaders = [
  'X-Request-Id',
  'X-Total-Count',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'Content-Disposition',
  'Location',
];
/** How long a browser may reuse a preflight's answer. */
const preflightMaxAgeSeconds = 600;

/**
 * CORS for the origins the operator lists (CORS_ALLOWED_ORIGINS). Credentials are bearer tokens and
 * API keys a page sends itself, so `Access-Control-Allow-Credentials` is never sent: no cookie or HTTP
 * authentication of the browser's ever rides along. A preflight from a listed origin is answered 204;
 * from any other origin it gets the router's usual answer, which a browser takes as a refusal.
 */
export function cors(options: CorsOptions) {
  const origins = new Set(options.origins);
  return wrapResponse('cors', (request, answer) => {
    if (origins.size === 0) return answer();
    const origin = request.headers.get('origin');
    const listed = origin !== null && origins.has(origin);
    if (listed && isPreflight(request)) {
      const preflight = preflightAnswer(request, origin, options.allowedMethods(new URL(request.url).pathname));
      if (preflight) return preflight;
    }
    return Promise.resolve(answer()).then((response) =>
      withHeaders(response, (headers) => {
        // The answer depends on Origin whenever a list is configured: caches must keep them apart.
        appendHeaderToken(headers, 'vary', 'Origin');
        if (!listed) return;
        headers.set('access-control-allow-origin', origin);
        headers.set('access-control-expose-headers', exposedHeaders.join(', '));
      }),
    );
  });
}

function isPreflight(request: Request): boolean {
  return request.method === 'OPTIONS' && request.headers.has('access-control-request-method');
}

function preflightAnswer(request: Request, origin: string, served: string[]): Response | undefined {
  const method = request.headers.get('access-control-request-method')!.toUpperCase();
  const methods = served.filter((entry) => entry !== 'OPTIONS');
  if (!methods.includes(method)) return undefined;
  const requested = (request.headers.get('access-control-request-headers') ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  if (requested.some((header) => !allowedRequestHeaders.includes(header))) return undefined;
  return new Response(null, {
    status: 204,
    headers: {
      'access-control-allow-origin': origin,
      'access-control-allow-methods': methods.join(', '),
      'access-control-allow-headers': allowedRequestHeaders.join(', '),
      'access-control-max-age': String(preflightMaxAgeSeconds),
      vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
    },
  });
}
