import type { ApiClient } from '../api/api-client';
import { CliError, exitCodes } from '../exit-codes';

export interface ChunkRequest {
  workspaceId: string;
  table: string;
  mode: 'append' | 'overwrite';
  primaryKey: string | undefined;
  mediaType: string;
  body: Uint8Array;
  gzip: boolean;
  idempotencyKey: string;
}

const attempts = 5;

/**
 * Sends one chunk, retrying what may pass a moment later (the service busy or unreachable, the same
 * key still being written by an attempt the connection lost): the idempotency key makes a retry safe,
 * since the service writes a key's records once and answers every retry with that first answer.
 */
export async function sendChunk(api: ApiClient, chunk: ChunkRequest): Promise<{ records_written: number; table: string }> {
  const body = chunk.gzip ? Bun.gzipSync(chunk.body as Uint8Array<ArrayBuffer>) : chunk.body;
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await api.request<{ records_written: number; table: string }>('POST', `/workspaces/${chunk.workspaceId}/push`, {
        query: { table: chunk.table, mode: chunk.mode, primary_key: chunk.primaryKey },
        headers: { 'content-type': chunk.mediaType, 'idempotency-key': chunk.idempotencyKey, ...(chunk.gzip ? { 'content-encoding': 'gzip' } : {}) },
        body: body as Uint8Array<ArrayBuffer>,
      });
      return answer.body;
    } catch (error) {
      const retryable = error instanceof CliError && (error.exitCode === exitCodes.unavailable || error.code === 'CONFLICT' && /still being processed/.test(error.message));
      if (!retryable || attempt === attempts) throw error;
      await Bun.sleep(500 * 2 ** (attempt - 1));
    }
  }
}
