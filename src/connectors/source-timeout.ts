/**
 * The longest a source may take to answer one request of a connector (a page, a call of a CRM's API):
 * past it the request fails as unreachable. Asking a source from an HTTP request (test, streams,
 * preview) is bounded by the same time as a whole.
 */
export const sourceTimeoutMs = 30_000;
