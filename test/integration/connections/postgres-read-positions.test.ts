import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Batch, ReadRequest, StreamSelection } from '../../../src/connectors/connector';
import { sourceAlias, sourceRelations } from '../../../src/connectors/postgres/catalog';
import { readRelation } from '../../../src/connectors/postgres/read';
import type { EngineConnection } from '../../../src/engine/duckdb/engine-connection';
import { attachPostgres } from '../../../src/engine/sync/source-attachments';
import type { SyncInstance } from '../../../src/engine/sync/sync-instance';
import { startTestApp, type TestApp } from '../../support/test-app';
import { createSourceDatabase, type SourceDatabase } from '../../support/connections';

/**
 * A read resumed from the position its last committed batch carried (a worker killed mid-sync) reads
 * exactly the rows that batch had not: whichever way the batches are read (one scan of the whole
 * table, key-range scans, per-batch queries, a table without a key).
 */
describe('postgres reads resumed from a committed position', () => {
  let t: TestApp;
  let source: SourceDatabase;
  let instance: SyncInstance;
  let connection: EngineConnection;

  beforeAll(async () => {
    source = await createSourceDatabase();
    await source.sql.unsafe('CREATE TABLE keyed (id bigint PRIMARY KEY, label text)');
    await source.sql.unsafe("INSERT INTO keyed SELECT g, 'l' || g FROM generate_series(1, 1000) g");
    await source.sql.unsafe('ANALYZE keyed');
    await source.sql.unsafe('CREATE TABLE loose (n int, label text)');
    await source.sql.unsafe("INSERT INTO loose SELECT g, 'l' || g FROM generate_series(1, 50) g");
    t = await startTestApp('local');
    instance = await t.services.engine.syncs.open({ sourceExtensions: ['postgres_scanner'] });
    connection = instance.connection;
    const url = new URL(source.url);
    await attachPostgres(connection, sourceAlias, {
      host: url.hostname,
      port: Number(url.port),
      database: source.name,
      user: decodeURIComponent(url.username),
      password: '',
      sslMode: 'disable',
      connectTimeoutSeconds: 10,
    });
  });
  afterAll(async () => {
    await instance.close();
    await t.stop();
    await source.drop();
  });

  const stream = (name: string, primaryKey: string[]): StreamSelection => ({ name, syncMode: 'full_refresh_overwrite', primaryKey });
  const batchesOf = async (request: ReadRequest): Promise<Batch[]> => {
    const relation = (await sourceRelations(connection, ['public'])).find((candidate) => candidate.stream === request.stream.name)!;
    const batches: Batch[] = [];
    for await (const batch of readRelation(connection, relation, request)) batches.push(batch);
    return batches;
  };
  const idsOf = async (batch: Batch, column = 'id'): Promise<number[]> => {
    if (batch.kind !== 'relation') throw new Error('a Postgres read yields relations');
    const rows = await connection.read(`SELECT CAST(${column} AS BIGINT) FROM (${batch.select}) ORDER BY 1`);
    return rows.getRows().map(([id]) => Number(id));
  };
  const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

  test('one scan of the whole table: resumed after it, nothing; resumed after a key, the rest', async () => {
    const request: ReadRequest = { stream: stream('keyed', ['id']), position: null, cursor: null, batchRows: 100, scanBatchRows: 5_000 };
    const [whole, ...others] = await batchesOf(request);
    expect(others).toEqual([]);
    expect(await idsOf(whole!)).toEqual(ids(1, 1_000));
    expect(await batchesOf({ ...request, position: whole!.position })).toEqual([]);
    const [rest, ...none] = await batchesOf({ ...request, position: { after: '600', nulls_done: true } });
    expect(none).toEqual([]);
    expect(await idsOf(rest!)).toEqual(ids(601, 1_000));
  });

  test('key-range scans and per-batch queries: batches read before a resume and after it hold every row once', async () => {
    for (const sizes of [
      { batchRows: 100, scanBatchRows: 300 },
      { batchRows: 300, scanBatchRows: 100 },
    ]) {
      const request: ReadRequest = { stream: stream('keyed', ['id']), position: null, cursor: null, ...sizes };
      const all = await batchesOf(request);
      expect(all.length).toBeGreaterThanOrEqual(4);
      const [first, second] = all;
      const resumed = await batchesOf({ ...request, position: second!.position });
      expect(resumed.length).toBe(all.length - 2);
      const read = [...(await idsOf(first!)), ...(await idsOf(second!))];
      for (const batch of resumed) read.push(...(await idsOf(batch)));
      expect(read).toEqual(ids(1, 1_000));
    }
  });

  test('a table without a key: one batch, and nothing once it committed', async () => {
    const request: ReadRequest = { stream: stream('loose', []), position: null, cursor: null, batchRows: 10, scanBatchRows: 10 };
    const [only, ...others] = await batchesOf(request);
    expect(others).toEqual([]);
    expect(await idsOf(only!, 'n')).toEqual(ids(1, 50));
    expect(await batchesOf({ ...request, position: only!.position })).toEqual([]);
  });
});
