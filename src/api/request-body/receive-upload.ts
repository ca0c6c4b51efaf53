import { open, type FileHandle } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ReceivedUpload } from '../../lake/push-service';
import { AppError, RequestValidationError } from '../../errors/app-error';
import { NdjsonRecords } from './ndjson-records';
import { payloadTooLarge } from './read-limited-body';
import type { UploadBody } from './upload-body';

/** Received bytes are written to the file in blocks of this size: one call per block, not per chunk of the socket. */
const writeBlockBytes = 1024 * 1024;

/**
 * Receives an upload into a new file of `folder`, chunk by chunk as it streams (decompressed when it
 * is gzip): an NDJSON body's records are checked and its columns inferred, a CSV body's bytes are
 * searched for NUL, and its bytes are hashed when `digest` asks (an idempotent push compares uploads
 * by their digest); the decoded size is held to the same limit as the body's, so a small gzip body
 * cannot unpack into a large file. Anything wrong, including a body that breaks off, removes the
 * file: nothing half-received is ever read. No more than a block of the body is held at a time.
 */
export async function receiveUpload(upload: UploadBody, folder: string, options: { digest: boolean }): Promise<ReceivedUpload> {
  const path = join(folder, `upload-${Bun.randomUUIDv7()}.${upload.format}`);
  const hash = options.digest ? new Bun.CryptoHasher('sha256') : undefined;
  const records = upload.format === 'ndjson' ? new NdjsonRecords() : undefined;
  // DecompressionStream's declared input type is wider than a byte stream's chunks; they are bytes all the same.
  const stream: ReadableStream<Uint8Array> = upload.gzip
    ? upload.stream.pipeThrough(new DecompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>)
    : upload.stream;
  const file = await open(path, 'wx', 0o600);
  const block = new Uint8Array(writeBlockBytes);
  let blockBytes = 0;
  let size = 0;
  try {
    try {
      for await (const chunk of stream) {
        size += chunk.byteLength;
        if (size > upload.limit.maxBytes) throw payloadTooLarge(upload.limit, 'larger than that once decompressed');
        hash?.update(chunk);
        records?.write(chunk);
        if (upload.format === 'csv' && chunk.includes(0))
          throw RequestValidationError.at(['body'], 'The body holds the NUL character (U+0000), which cannot be stored', 'string_nul');
        if (blockBytes + chunk.byteLength > writeBlockBytes) {
          await writeAll(file, block.subarray(0, blockBytes));
          blockBytes = 0;
        }
        if (chunk.byteLength >= writeBlockBytes) await writeAll(file, chunk);
        else {
          block.set(chunk, blockBytes);
          blockBytes += chunk.byteLength;
        }
      }
      await writeAll(file, block.subarray(0, blockBytes));
    } catch (error) {
      throw error instanceof AppError || error instanceof RequestValidationError || !(error instanceof Error) ? error : brokenBody(upload, error);
    }
    const ndjson = records?.end();
    await file.close();
    if (size >= collectAfterBytes) Bun.gc(true);
    return { file: { path, format: upload.format, ...(ndjson ? { columns: ndjson.columns } : {}) }, ...(hash ? { sha256: hash.digest('hex') } : {}) };
  } catch (error) {
    await file.close().catch(() => {});
    rmSync(path, { force: true });
    throw error;
  }
}

/**
 * Reading a large upload leaves the garbage of its chunks and records behind (a gigabyte of NDJSON left
 * 60 MB on the heap and 75 MB of chunks outside it), which the collector takes its time over; DuckDB
 * then reads the file with buffers of its own (about 100 MB a thread), and the two added up. Once a
 * large upload is received, its garbage is collected before the write begins: one pause, beside
 * seconds of reading. Small uploads are left to the collector.
 */
const collectAfterBytes = 128 * 1024 * 1024;

async function writeAll(file: FileHandle, bytes: Uint8Array): Promise<void> {
  for (let written = 0; written < bytes.byteLength;) written += (await file.write(bytes, written)).bytesWritten;
}

/** A stream that failed midway: a gzip body that is not one, or a connection that closed early. */
function brokenBody(upload: UploadBody, error: Error): RequestValidationError {
  const what = upload.gzip ? 'is not a complete gzip stream' : 'broke off before its end';
  return RequestValidationError.at(['body'], `The body ${what} (${error.message}); nothing was written`, 'value_error');
}
