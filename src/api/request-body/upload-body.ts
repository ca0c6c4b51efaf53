import type { UploadFormat } from '../../engine/write/file-source';
import { RequestValidationError } from '../../errors/app-error';
import { payloadTooLarge, type BodyLimit } from './read-limited-body';

/** The media types a route that takes uploads reads as records, and the format of each. */
export const uploadMediaTypes: Readonly<Record<string, UploadFormat>> = {
  'application/x-ndjson': 'ndjson',
  'text/csv': 'csv',
  'application/vnd.apache.parquet': 'parquet',
};

export function uploadFormatOf(contentType: string | null): UploadFormat | undefined {
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return uploadMediaTypes[mediaType];
}

/**
 * A body taken as it streams rather than read into memory: the route reads it (after its caller is
 * authenticated) into a file. Its bytes are counted against the limit as they arrive, and a body
 * that ends before its declared length is an error, never a shorter upload.
 */
export class UploadBody {
  private constructor(
    readonly stream: ReadableStream<Uint8Array>,
    readonly format: UploadFormat,
    readonly gzip: boolean,
    readonly limit: BodyLimit,
  ) {}

  static of(request: Request, format: UploadFormat, limit: BodyLimit): UploadBody {
    const encoding = (request.headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
    if (encoding !== 'identity' && encoding !== 'gzip') {
      throw RequestValidationError.at(['header', 'content-encoding'], `Content-Encoding "${encoding}" is not accepted; send gzip or none`, 'literal_error');
    }
    const declared = Number(request.headers.get('content-length') ?? Number.NaN);
    return new UploadBody(
      limited(request.body ?? new ReadableStream(), limit, Number.isFinite(declared) ? declared : undefined),
      format,
      encoding === 'gzip',
      limit,
    );
  }
}

function limited(body: ReadableStream<Uint8Array>, limit: BodyLimit, declared: number | undefined): ReadableStream<Uint8Array> {
  let received = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.byteLength;
        if (received > limit.maxBytes) throw payloadTooLarge(limit, 'larger than that');
        controller.enqueue(chunk);
      },
      flush() {
        if (declared !== undefined && received !== declared) {
          throw RequestValidationError.at(['body'], `The body ended after ${received} of its ${declared} bytes; nothing was written`, 'value_error');
        }
      },
    }),
  );
}
