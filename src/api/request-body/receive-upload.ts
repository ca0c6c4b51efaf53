import { open } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ReceivedUpload } from '../../lake/push-service';
import { AppError, RequestValidationError } from '../../errors/app-error';
import { NdjsonRecords } from './ndjson-records';
import { payloadTooLarge } from './read-limited-body';
import type { UploadBody } from './upload-body';

/**
 * Receives an upload into a new file of `folder`, chunk by chunk as it streams (decompressed when it
 * is gzip): its bytes are hashed, an NDJSON body's records are checked and its columns inferred, a CSV
 * body's bytes are searched for NUL; the decoded size is held to the same limit as the body's, so a
 * small gzip body cannot unpack into a large file. Anything wrong, including a body that breaks off,
 * removes the file: nothing half-received is ever read.
 */
export async function receiveUpload(upload: UploadBody, folder: string): Promise<ReceivedUpload> {
  const path = join(folder, `upload-${Bun.randomUUIDv7()}.${upload.format}`);
  const hash = new Bun.CryptoHasher('sha256');
  const records = upload.format === 'ndjson' ? new NdjsonRecords() : undefined;
  // DecompressionStream's declared input type is wider than a byte stream's chunks; they are bytes all the same.
  const stream: ReadableStream<Uint8Array> = upload.gzip ? upload.stream.pipeThrough(new DecompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>) : upload.stream;
  const file = await open(path, 'wx', 0o600);
  let size = 0;
  try {
    try {
      for await (const chunk of stream) {
        size += chunk.byteLength;
        if (size > upload.limit.maxBytes) throw payloadTooLarge(upload.limit, 'larger than that once decompressed');
        hash.update(chunk);
        records?.write(chunk);
        if (upload.format === 'csv' && chunk.includes(0)) throw RequestValidationError.at(['body'], 'The body holds the NUL character (U+0000), which cannot be stored', 'string_nul');
        await file.write(chunk);
      }
    } catch (error) {
      throw error instanceof AppError || error instanceof RequestValidationError || !(error instanceof Error) ? error : brokenBody(upload, error);
    }
    const ndjson = records?.end();
    await file.close();
    return { file: { path, format: upload.format, ...(ndjson ? { columns: ndjson.columns } : {}) }, sha256: hash.digest('hex') };
  } catch (error) {
    await file.close().catch(() => {});
    rmSync(path, { force: true });
    throw error;
  }
}

/** A stream that failed midway: a gzip body that is not one, or a connection that closed early. */
function brokenBody(upload: UploadBody, error: Error): RequestValidationError {
  const what = upload.gzip ? 'is not a complete gzip stream' : 'broke off before its end';
  return RequestValidationError.at(['body'], `The body ${what} (${error.message}); nothing was written`, 'value_error');
}
