import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestUser } from './accounts';
import type { TestApp } from './test-app';

export const ndjsonOf = (records: unknown[]) => `${records.map((record) => JSON.stringify(record)).join('\n')}\n`;

/** Sends records as the push's body itself (NDJSON, CSV, Parquet), with the target in the query. */
export function upload(
  t: TestApp,
  workspaceId: string,
  user: TestUser,
  body: string | Uint8Array,
  contentType: string,
  query: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return t.request(`/api/v1/workspaces/${workspaceId}/push?${new URLSearchParams(query)}`, {
    method: 'POST',
    body: body as string | Uint8Array<ArrayBuffer>,
    token: user.accessToken,
    headers: { 'content-type': contentType, ...headers },
  });
}

/** A Parquet file written by DuckDB itself from a SELECT. */
export async function parquetOf(select: string): Promise<Uint8Array<ArrayBuffer>> {
  const dir = mkdtempSync(join(tmpdir(), 'oxbow-parquet-'));
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const file = join(dir, 'data.parquet');
    await connection.run(`COPY (${select}) TO '${file}' (FORMAT parquet)`);
    return new Uint8Array(readFileSync(file));
  } finally {
    connection.closeSync();
    instance.closeSync();
    rmSync(dir, { recursive: true, force: true });
  }
}
