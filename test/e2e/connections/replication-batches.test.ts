import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import {
  createConnectionOk,
  createSourceDatabase,
  postgresSpec,
  queryRows,
  syncJob,
  syncOk,
  triggerSyncOk,
  waitForSync,
  type SourceDatabase,
} from '../../support/connections';
import { withWorkspace } from '../../support/fixtures';

/**
 * A replication sync reads every transaction committed before it, however the log's transactions fall
 * into its batches: the batch size here is 300 changes (SYNC_BATCH_ROWS), and the transactions are
 * smaller, larger, and exactly as large as a batch. The source commits asynchronously (the test cluster
 * runs with synchronous_commit=off) and its WAL writer is made slow, so that the WAL of the last commits
 * is still unflushed when a sync starts, as on any busy source that commits so: the slot functions
 * decode only flushed WAL. After each sync the lake holds exactly the source's rows, every column of
 * every row compared, and each change was read once.
 */
describe('replication syncs read every committed transaction, whatever the batches', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  let source: SourceDatabase;
  const batch = 300;

  beforeAll(async () => {
    source = await createSourceDatabase();
    await source.sql.unsafe(`ALTER SYSTEM SET wal_writer_delay = '10s'`);
    await source.sql.unsafe('SELECT pg_reload_conf()');
    ({ t, user, workspaceId } = await withWorkspace('local', {
      worker: true,
      env: { SYNC_BATCH_ROWS: String(batch), SYNC_SCAN_BATCH_ROWS: '100000' },
      label: 'pg-repl-batches',
      plan: 'business',
    }));
  });
  afterAll(async () => {
    await source.sql.unsafe('ALTER SYSTEM RESET wal_writer_delay');
    await source.sql.unsafe('SELECT pg_reload_conf()');
    await t.stop();
    await source.drop();
  });

  const makeTable = async (table: string, rows: number) => {
    await source.sql.unsafe(`CREATE TABLE ${table} (id bigint PRIMARY KEY, name text, version int NOT NULL, amount numeric(12,2))`);
    await source.sql.unsafe(`INSERT INTO ${table} SELECT g, 'row ' || g, 0, g * 0.25 FROM generate_series(1, ${rows}) g`);
  };
  const replicated = async (table: string) => {
    const connection = await createConnectionOk(t, user, workspaceId, {
      name: table,
      connector_type: 'postgres',
      spec: postgresSpec(source, { replication_method: 'logical' }),
      streams: [{ name: table, sync_mode: 'incremental_append_deduped' }],
    });
    const first = await syncOk(t, user, workspaceId, connection.id);
    expect(first.status).toBe('succeeded');
    return connection.id as string;
  };
  const sourceRows = async (table: string) =>
    (await source.sql.unsafe(`SELECT id::int AS id, name, version, amount::text AS amount FROM ${table} ORDER BY id`)).map((row) => ({ ...row }));
  const lakeRows = (table: string) =>
    queryRows(t, user, workspaceId, `SELECT id::INTEGER AS id, name, version, amount::VARCHAR AS amount FROM ${table}.${table} ORDER BY id`);
  const expectSame = async (table: string) => {
    const [lake, expected] = await Promise.all([lakeRows(table), sourceRows(table)]);
    expect(lake.length).toBe(expected.length);
    expect(lake).toEqual(expected);
  };
  const expectIdle = async (connectionId: string) => {
    const idle = await syncOk(t, user, workspaceId, connectionId);
    expect(idle.streams[0]).toMatchObject({ status: 'succeeded', records_read: 0, records_written: 0, records_deleted: 0 });
  };
  /** A sync reads exactly `read` changes, the lake then equals the source, and a sync after it reads none. */
  const expectSynced = async (table: string, connectionId: string, read: number) => {
    const job = await syncOk(t, user, workspaceId, connectionId);
    expect(job.streams[0].records_read).toBe(read);
    await expectSame(table);
    await expectIdle(connectionId);
  };

  test('transactions smaller and larger than a batch, inserts, updates and deletes mixed, all in one sync', async () => {
    await makeTable('mixed', 3_000);
    const connectionId = await replicated('mixed');
    // 1,000 updates (one transaction of more than three batches), 40 inserts, 5 small mixed transactions,
    // 700 deletes, 1,340 more updates.
    await source.sql.unsafe('UPDATE mixed SET version = version + 1, amount = amount + 1 WHERE id <= 1000');
    await source.sql.unsafe(`INSERT INTO mixed SELECT g, 'new ' || g, 1, g FROM generate_series(3001, 3040) g`);
    for (let round = 0; round < 5; round++) {
      await source.sql.begin(async (sql) => {
        await sql.unsafe(`INSERT INTO mixed VALUES (${4000 + round}, 'mixed', 2, 2)`);
        await sql.unsafe(`UPDATE mixed SET name = 'round ${round}' WHERE id = ${2000 + round}`);
        await sql.unsafe(`DELETE FROM mixed WHERE id = ${2500 + round}`);
      });
    }
    await source.sql.unsafe('DELETE FROM mixed WHERE id BETWEEN 1001 AND 1700');
    await source.sql.unsafe('UPDATE mixed SET version = version + 10 WHERE id > 1700');
    // The last updates: the 1,300 rows above 1,700, less the 5 deleted, with the 40 and 5 inserted.
    await expectSynced('mixed', connectionId, 1_000 + 40 + 15 + 700 + 1_340);
  }, 120_000);

  test('one transaction of updates larger than a batch, the only change', async () => {
    await makeTable('bulk', 2_000);
    const connectionId = await replicated('bulk');
    await source.sql.unsafe('UPDATE bulk SET version = version + 1, name = name || $1 WHERE id BETWEEN 500 AND 1699', ['!']);
    await expectSynced('bulk', connectionId, 1_200);
  }, 120_000);

  test('transactions that end exactly at, one short of and one past a batch boundary', async () => {
    await makeTable('edge', 2_000);
    const connectionId = await replicated('edge');
    // A read's first transaction carries the table's description, a begin and a commit: 297 rows make
    // exactly a batch of 300 messages; then one short of a batch, one past, and a single row.
    let from = 1;
    for (const size of [297, 298, 299, 300]) {
      await source.sql.unsafe(`UPDATE edge SET version = ${size} WHERE id BETWEEN ${from} AND ${from + size - 1}`);
      from += size;
    }
    await source.sql.unsafe('DELETE FROM edge WHERE id = 1999');
    await source.sql.unsafe(`INSERT INTO edge SELECT g, 'edge', 3, 3 FROM generate_series(2001, ${2000 + batch}) g`);
    await expectSynced('edge', connectionId, 297 + 298 + 299 + 300 + 1 + batch);
  }, 120_000);

  test('changes committed while a sync runs are read by it or by the next one, each once', async () => {
    await makeTable('live', 3_000);
    const connectionId = await replicated('live');
    // 2,400 updates in transactions of 300: eight batches or more, each its own lake commit.
    for (let from = 1; from <= 2_400; from += 300) await source.sql.unsafe(`UPDATE live SET version = version + 1 WHERE id BETWEEN ${from} AND ${from + 299}`);
    const jobId = await triggerSyncOk(t, user, workspaceId, connectionId);
    // Meanwhile, small transactions of an insert, an update and a delete, until the job ends.
    let during = 0;
    for (;;) {
      await source.sql.begin(async (sql) => {
        await sql.unsafe(`INSERT INTO live VALUES (${10_000 + during}, 'during', 1, 1)`);
        await sql.unsafe(`UPDATE live SET name = 'during ${during}' WHERE id = ${2_500 + during}`);
        await sql.unsafe(`DELETE FROM live WHERE id = ${2_999 - during}`);
      });
      during += 1;
      if (during >= 200 || !['pending', 'running'].includes((await syncJob(t, user, workspaceId, connectionId, jobId)).status)) break;
      await Bun.sleep(30);
    }
    // Some of them while the job was still running, not only before it started.
    expect(during).toBeGreaterThan(1);
    const first = await waitForSync(t, user, workspaceId, connectionId, jobId);
    expect(first.status).toBe('succeeded');
    expect(first.streams[0].records_read).toBeGreaterThanOrEqual(2_400);
    const second = await syncOk(t, user, workspaceId, connectionId);
    expect(first.streams[0].records_read + second.streams[0].records_read).toBe(2_400 + 3 * during);
    await expectSame('live');
    await expectIdle(connectionId);
  }, 120_000);
});
