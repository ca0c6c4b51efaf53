import { AppError, RequestValidationError } from '../errors/app-error';

/**
 * A route `parse` hook for large JSON bodies: refuses a declared length over the limit before reading,
 * counts the bytes while reading (chunked bodies declare nothing), then parses.
 */
export function boundedJsonBody(maxBytes: number, advice: string) {
  const tooLarge = (size: string) => new AppError('PAYLOAD_TOO_LARGE', `The body is ${size}; this endpoint takes at most ${maxBytes} bytes`, { hint: advice });
  return async ({ request }: { request: Request }): Promise<unknown> => {
    const declared = Number(request.headers.get('content-length') ?? Number.NaN);
    if (declared > maxBytes) throw tooLarge(`${declared} bytes`);
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (request.body) {
      for await (const chunk of request.body) {
        size += chunk.byteLength;
        if (size > maxBytes) throw tooLarge('larger than that');
        chunks.push(chunk);
      }
    }
    try {
      return JSON.parse(Buffer.concat(chunks, size).toString('utf8'));
    } catch {
      throw RequestValidationError.at(['body'], 'The request body is not valid JSON', 'json_invalid');
    }
  };
}
