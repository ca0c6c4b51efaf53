import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Member } from './membership';

/** Headers of a request one replica forwards to the owner of its workspace. */
export const forwardHeaders = {
  /** The forwarding key: only replicas of this deployment know it. */
  token: 'x-oxbow-forward-token',
  /** What the forwarding replica established (caller, membership), as base64url JSON. */
  identity: 'x-oxbow-forward-identity',
} as const;

/** Hop-by-hop headers, and what the forwarder sets itself. */
const notForwarded = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'upgrade',
  'host',
  'content-length',
  forwardHeaders.token,
  forwardHeaders.identity,
]);
const notReturned = new Set(['connection', 'keep-alive', 'transfer-encoding']);

/**
 * The key that makes a forwarded request trusted, derived from the JWT secret every replica already
 * shares (from the environment or DATA_DIR): no new variable, and a separate key, so the secret that
 * signs access tokens is never sent anywhere. Checked in constant time.
 */
export class ForwardingKey {
  private readonly key: Buffer;
  readonly header: string;

  constructor(sharedSecret: string) {
    this.key = createHmac('sha256', sharedSecret).update('oxbow internal forwarding v1').digest();
    this.header = this.key.toString('base64url');
  }

  verify(presented: string | null): boolean {
    if (presented === null || presented.length > 128) return false;
    const bytes = Buffer.from(presented, 'base64url');
    return bytes.length === this.key.length && timingSafeEqual(bytes, this.key);
  }
}

/** What the replica that took a request established before forwarding it. */
export type ForwardedIdentity = Record<string, unknown>;

export function encodeIdentity(identity: ForwardedIdentity): string {
  return Buffer.from(JSON.stringify(identity)).toString('base64url');
}

export function decodeIdentity(header: string | null): ForwardedIdentity | undefined {
  if (!header) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as ForwardedIdentity) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How a forward ended. `unreachable`: no connection could be made, so the owner never saw the request;
 * `resendable` says whether it may go elsewhere (a streamed body part of which was read cannot).
 * `broken`: the connection failed after the request was sent; the owner may have acted on it, so it is
 * never sent again (the caller answers 503 and the client decides).
 */
export type ForwardOutcome = { kind: 'answered'; response: Response } | { kind: 'unreachable'; resendable: boolean } | { kind: 'broken'; error: unknown };

type StreamReader = { read(): Promise<{ done: boolean; value?: Uint8Array }>; releaseLock(): void };

/**
 * A request's body as it is forwarded, over one or more tries. Bytes go again as they are. A stream (an
 * upload, never held in memory) is read only as the owner's connection takes it, so a try refused before
 * it took anything leaves it whole for the next; once part of it has been read it can go nowhere else,
 * since what is left of it is not the upload.
 */
export class ForwardedBody {
  private reader: StreamReader | undefined;
  private started = false;
  /** Why the stream itself failed (too large, cut short): the client's error, not the owner's. */
  failure: unknown;

  constructor(
    private readonly body: Uint8Array | ReadableStream<Uint8Array> | undefined,
    /** The length the client declared for a stream, passed on so that the owner checks it too. */
    readonly declaredLength: string | null,
  ) {}

  get streamed(): boolean {
    return this.body instanceof ReadableStream;
  }

  get resendable(): boolean {
    return !this.started;
  }

  /** After a try that took nothing: the stream is whole again, for the next try or for this process to read. */
  release(): void {
    if (this.started || !this.reader) return;
    this.reader.releaseLock();
    this.reader = undefined;
  }

  /** The body of the next try. */
  next(): Uint8Array | ReadableStream<Uint8Array> | undefined {
    if (!(this.body instanceof ReadableStream)) return this.body && this.body.byteLength > 0 ? this.body : undefined;
    const reader: StreamReader = (this.reader ??= this.body.getReader());
    return new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          this.started = true;
          try {
            const { done, value } = await reader.read();
            if (done || value === undefined) controller.close();
            else controller.enqueue(value);
          } catch (error) {
            this.failure = error;
            controller.error(error);
          }
        },
      },
      // Nothing is read ahead of the connection: a refused try leaves the stream untouched.
      { highWaterMark: 0 },
    );
  }
}

/**
 * Sends a request on to the replica that owns its workspace, over keep-alive connections (Bun's fetch
 * pools them per origin), and streams the owner's answer back as it comes.
 */
export class OwnerForwarder {
  constructor(private readonly key: ForwardingKey) {}

  /** `requestId`: the id the request has here, so that both processes log it under the same one. */
  async forward(request: Request, owner: Member, body: ForwardedBody, identity: ForwardedIdentity, requestId: string): Promise<ForwardOutcome> {
    const url = new URL(request.url);
    const headers = new Headers();
    request.headers.forEach((value, name) => {
      if (!notForwarded.has(name)) headers.set(name, value);
    });
    // A stream goes with the length its client declared (bytes get theirs from fetch): the owner holds it to that.
    if (body.streamed && body.declaredLength !== null) headers.set('content-length', body.declaredLength);
    headers.set('x-request-id', requestId);
    headers.set(forwardHeaders.token, this.key.header);
    headers.set(forwardHeaders.identity, encodeIdentity(identity));
    let upstream: Response;
    try {
      upstream = await fetch(`${owner.address}${url.pathname}${url.search}`, {
        method: request.method,
        headers,
        body: body.next(),
        redirect: 'manual',
        // Passed on as the owner encoded it: the client negotiated that encoding.
        decompress: false,
      } as RequestInit);
    } catch (error) {
      if (body.failure !== undefined) throw body.failure;
      body.release();
      return isRefused(error) ? { kind: 'unreachable', resendable: body.resendable } : { kind: 'broken', error };
    }
    const returned = new Headers();
    upstream.headers.forEach((value, name) => {
      if (!notReturned.has(name)) returned.append(name, value);
    });
    return { kind: 'answered', response: new Response(upstream.body, { status: upstream.status, headers: returned }) };
  }
}

function isRefused(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ECONNREFUSED' || code === 'ConnectionRefused';
}
