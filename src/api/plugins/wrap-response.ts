import { Elysia } from 'elysia';

type Answer = Response | Promise<Response>;

/**
 * A plugin that sees every answer of the app as the client will get it (routes, errors, 404s and
 * streams alike) and may answer a request before any route does. Elysia's `wrap` goes around the whole
 * handler, so `app.handle()` in the tests passes through it as the server does.
 */
export function wrapResponse(name: string, shape: (request: Request, answer: () => Answer) => Answer) {
  return new Elysia({ name }).wrap(
    (handle, request) =>
      ((...args: unknown[]) => shape(request, () => (handle as unknown as (...a: unknown[]) => Answer)(...args))) as unknown as ReturnType<typeof handle>,
  );
}

/** Adds a token to a comma-separated header such as Vary, once. */
export function appendHeaderToken(headers: Headers, name: string, token: string): void {
  const present = (headers.get(name) ?? '').split(',').map((entry) => entry.trim().toLowerCase());
  if (!present.includes(token.toLowerCase())) headers.set(name, [headers.get(name), token].filter(Boolean).join(', '));
}

/** The same answer with other headers (a Response's own headers may be immutable). */
export function withHeaders(response: Response, change: (headers: Headers) => void): Response {
  const headers = new Headers(response.headers);
  change(headers);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
