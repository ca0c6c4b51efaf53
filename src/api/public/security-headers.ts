/**
 * The policy of public pages: nothing may load or run but the service's own script and style sheet
 * (no inline script or style, no other origin, no plugin, no form, no base URL). Framing stays
 * allowed: a public chart is made to be embedded, and its page has nothing to click that changes
 * anything.
 */
export const publicPagePolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  'frame-ancestors *',
].join('; ');

/** Headers of every public answer: no link leaks through Referer, nothing is sniffed into another type, nothing is kept (an unpublished link ends at once). */
export const publicHeaders: Record<string, string> = {
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

/** Headers of every public HTML page. */
export const pageHeaderValues: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': publicPagePolicy,
  ...publicHeaders,
};

export function htmlResponse(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { ...pageHeaderValues, ...headers } });
}
