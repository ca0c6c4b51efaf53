import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import type { DuckDBInstance } from '@duckdb/node-api';
import { createTestBackend, type TestBackend } from '../../support/backends';
import { createDuckDBInstance } from '../../../src/engine/duckdb/create-instance';
import { EngineConnection } from '../../../src/engine/duckdb/engine-connection';
import { sqlString } from '../../../src/engine/sql-literals';

/**
 * Engine instances keep the Parquet footers they have read (lake files are never rewritten in place).
 * Should a file change all the same, DuckDB notices: a read never answers from a stale footer.
 */
describe('Parquet footers kept by an engine instance', () => {
  let env: TestBackend;
  const instances: DuckDBInstance[] = [];
  let reader: EngineConnection;
  let writer: EngineConnection;

  beforeAll(async () => {
    env = await createTestBackend('local');
    const open = async () => {
      const instance = await createDuckDBInstance({ extensionDir: env.config.duckdb.extensionDir, extensions: [] });
      instances.push(instance);
      return new EngineConnection(await instance.connect());
    };
    reader = await open();
    writer = await open();
  });
  afterAll(async () => {
    reader.closeSync();
    writer.closeSync();
    for (const instance of instances) instance.closeSync();
    await env.cleanup();
  });

  test('the setting is on, and a file another instance rewrites in place is read as it is now', async () => {
    expect((await reader.read("SELECT current_setting('parquet_metadata_cache')")).scalar()).toBe(true);
    const file = join(env.config.dataDir, 'rewritten.parquet');
    const sumOf = `SELECT count(*)::INTEGER, sum(id)::INTEGER FROM read_parquet(${sqlString(file)})`;
    for (const [rows, offset, expected] of [
      [3, 0, [3, 3]],
      [3, 10, [3, 33]],
      [5, 0, [5, 10]],
      [3, 0, [3, 3]],
    ] as const) {
      await writer.run(`COPY (SELECT range + ${offset} AS id FROM range(${rows})) TO ${sqlString(file)} (FORMAT parquet)`);
      expect((await reader.read(sumOf, undefined, undefined, { reuse: true })).getRows()[0]).toEqual([...expected]);
    }
  });
});
