import type { ApiClient } from '../api/api-client';
import { CliError, exitCodes } from '../exit-codes';

export interface ChunkRequest {
  workspaceId: string;
  table: string;
  mode: 'append' | 'overwrite';
  primaryKey: string | undefined;
  mediaType: string;
  body: Uint8Array | Blob;
  /** Compress the body for the way (a Blob, a Parquet file, goes as it is: it is compressed inside). */
  gzip: boolean;
  /** The body is gzip already. */
  gzipped: boolean;
  idempotencyKey: string;
}

const attempts = 5;

/**
 * Sends one chunk, retrying what may pass a moment later (the service busy or unreachable, the same
 * key still being written by an attempt the connection lost): the idempotency key makes a retry safe,
 * since the service writes a key's records once and answers every retry with that first answer.
 */
export async function sendChunk(api: ApiClient, chunk: ChunkRequest): Promise<{ records_written: number; table: string }> {
  const compress = chunk.gzip && !chunk.gzipped && !(chunk.body instanceof Blob);
  const body = compress ? Bun.gzipSync(chunk.body as Uint8Array<ArrayBuffer>) : chunk.body;
  const encoded = compress || chunk.gzipped;
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await api.request<{ records_written: number; table: string }>('POST', `/workspaces/${chunk.workspaceId}/push`, {
        query: { table: chunk.table, mode: chunk.mode, primary_key: chunk.primaryKey },
        headers: { 'content-type': chunk.mediaType, 'idempotency-key': chunk.idempotencyKey, ...(encoded ? { 'content-encoding': 'gzip' } : {}) },
        body: body as Uint8Array<ArrayBuffer> | Blob,
      });
      return answer.body;
    } catch (error) {
      const retryable =
        error instanceof CliError && (error.exitCode === exitCodes.unavailable || (error.code === 'CONFLICT' && /still being processed/.test(error.message)));
      if (!retryable || attempt === attempts) throw error;
      await Bun.sleep(500 * 2 ** (attempt - 1));
    }
  }
}
