import type { LogFields } from '../../logging/logger';
import type { ForwardedIdentity } from '../../cluster/forwarding';

/** What the HTTP layer knows about a request from its first byte: its id and when it began. */
export interface RequestMeta {
  id: string;
  startedAt: number;
  /** The fields every log line of the request carries; grows as the request learns (its workspace). */
  log: LogFields;
  /**
   * Lifts the listener's idle timeout for this request's connection (set by server.ts; absent when
   * the app is driven without a listener). For work that may outlast the idle timeout after its body
   * has arrived: the listener would otherwise close the connection before the answer.
   */
  keepAlive?: () => void;
  /**
   * The body as received, kept where the request may have to be forwarded to its workspace's owner
   * or where its route reads the JSON text itself; an upload's stream, not yet read (see UploadBody).
   */
  body?: Uint8Array | ReadableStream<Uint8Array>;
  /** What the replica that forwarded the request established; null: not forwarded (see OwnerRouting). */
  forwarded?: ForwardedIdentity | null;
  /** Called once the request has been answered: its workspace may move from then on. */
  answered?: () => void;
}

const metaByRequest = new WeakMap<Request, RequestMeta>();
const acceptedRequestId = /^[A-Za-z0-9._-]{8,128}$/;

function beginRequest(request: Request): RequestMeta {
  const incoming = request.headers.get('x-request-id');
  const id = incoming && acceptedRequestId.test(incoming) ? incoming : Bun.randomUUIDv7();
  const meta = { id, startedAt: performance.now(), log: { request_id: id } };
  metaByRequest.set(request, meta);
  return meta;
}

export function requestMeta(request: Request): RequestMeta {
  return metaByRequest.get(request) ?? beginRequest(request);
}
