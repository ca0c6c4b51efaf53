/** What the HTTP layer knows about a request from its first byte: its id and when it began. */
export interface RequestMeta {
  id: string;
  startedAt: number;
}

const metaByRequest = new WeakMap<Request, RequestMeta>();
const acceptedRequestId = /^[A-Za-z0-9._-]{8,128}$/;

export function beginRequest(request: Request): RequestMeta {
  const incoming = request.headers.get('x-request-id');
  const meta = { id: incoming && acceptedRequestId.test(incoming) ? incoming : Bun.randomUUIDv7(), startedAt: performance.now() };
  metaByRequest.set(request, meta);
  return meta;
}

export function requestMeta(request: Request): RequestMeta {
  return metaByRequest.get(request) ?? beginRequest(request);
}
