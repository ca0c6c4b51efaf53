import { AppError } from '../../errors/app-error';

/** How much body one route accepts, and what to tell a client who sends more. */
export interface BodyLimit {
  maxBytes: number;
  advice: string;
}

export function payloadTooLarge(limit: BodyLimit, size: string): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `The body is ${size}; this endpoint takes at most ${limit.maxBytes} bytes`, { hint: limit.advice });
}

/** The declared Content-Length, when there is a sane one (a chunked body declares none). */
export function declaredLength(request: Request): number | undefined {
  const header = request.headers.get('content-length');
  if (header === null || !/^\d{1,16}$/.test(header.trim())) return undefined;
  return Number(header);
}

/**
 * The body's bytes, never more than the limit: a declared length over it is refused before anything is
 * read, and the bytes are counted as they arrive, so a chunked body or one longer than it declared
 * cannot grow past the limit either.
 */
export async function readLimitedBody(request: Request, limit: BodyLimit): Promise<Uint8Array> {
  const declared = declaredLength(request);
  if (declared !== undefined && declared > limit.maxBytes) throw payloadTooLarge(limit, `${declared} bytes`);
  if (!request.body) return new Uint8Array();
  // The server reads exactly the declared length of a body that is not chunked: within the limit, it
  // is taken in one call rather than piece by piece through the stream.
  if (declared !== undefined && !request.headers.has('transfer-encoding')) return request.bytes();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body) {
    size += chunk.byteLength;
    if (size > limit.maxBytes) throw payloadTooLarge(limit, 'larger than that');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}
