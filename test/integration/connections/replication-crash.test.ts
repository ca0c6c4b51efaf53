import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import { serviceEnvOf } from '../../support/service-env';
import { WorkerProcesses } from '../../support/service-process';
import {
  createConnectionOk,
  createSourceDatabase,
  postgresSpec,
  queryRows,
  syncJob,
  syncMidway,
  triggerSyncOk,
  waitForSync,
  type SourceDatabase,
} from '../../support/connections';
import { withWorkspace } from '../../support/fixtures';

/**
 * The API in this process, the worker in another: the worker is killed with SIGKILL in the middle of a
 * sync that reads many batches of changes from a replication slot, and a new one finishes the job. The
 * slot is confirmed only past batches the lake holds, and a batch applied again changes nothing: the
 * table ends exactly as the source is, no row lost, doubled or left behind after its delete.
 */
describe('a replication sync survives its worker being killed', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  let source: SourceDatabase;
  // Batches of 1,000 changes: the changes below make dozens of them, seconds of work to be killed in (the first full read is one scan).
  const workers = new WorkerProcesses(() => ({ ...serviceEnvOf(t), LOG_LEVEL: 'warn', SYNC_BATCH_ROWS: '1000', SYNC_SCAN_BATCH_ROWS: '100000' }));

  beforeAll(async () => {
    source = await createSourceDatabase();
    await source.sql.unsafe('CREATE TABLE ledger (id bigint PRIMARY KEY, account text, version int NOT NULL, amount numeric(12,2))');
    await source.sql.unsafe(`INSERT INTO ledger SELECT g, 'acct-' || (g % 97), 0, g * 0.5 FROM generate_series(1, 20000) g`);
    ({ t, user, workspaceId } = await withWorkspace('local', { label: 'replication-crash' }));
  });
  afterEach(() => workers.killAll());
  afterAll(async () => {
    await t.stop();
    await source.drop();
  });

  const state = async () => ({
    lake: await queryRows(
      t,
      user,
      workspaceId,
      'SELECT count(*) AS n, count(DISTINCT id) AS d, sum(id) AS s, sum(version) AS v, sum(amount)::VARCHAR AS a FROM books.ledger',
    ),
    source: (
      await source.sql.unsafe(
        'SELECT count(*)::int AS n, count(DISTINCT id)::int AS d, sum(id)::int AS s, sum(version)::int AS v, sum(amount)::text AS a FROM ledger',
      )
    ).map((row) => ({ ...row })),
  });

  test('kill -9 while changes are applied: every insert, update and delete lands exactly once', async () => {
    const connection = await createConnectionOk(t, user, workspaceId, {
      name: 'books',
      connector_type: 'postgres',
      spec: postgresSpec(source, { replication_method: 'logical' }),
      streams: [{ name: 'ledger', sync_mode: 'incremental_append_deduped' }],
    });
    await workers.start();
    const first = await waitForSync(t, user, workspaceId, connection.id, await triggerSyncOk(t, user, workspaceId, connection.id), undefined, 150_000);
    expect(first.status).toBe('succeeded');

    // 36,000 changes in transactions of 500 rows: updates (each row twice), inserts and deletes.
    for (let round = 1; round <= 2; round++) {
      for (let from = 1; from <= 20000; from += 500)
        await source.sql.unsafe(`UPDATE ledger SET version = version + 1, amount = amount + 1 WHERE id BETWEEN ${from} AND ${from + 499}`);
    }
    for (let from = 20001; from <= 24000; from += 500)
      await source.sql.unsafe(`INSERT INTO ledger SELECT g, 'new', 1, g FROM generate_series(${from}, ${from + 499}) g`);
    await source.sql.unsafe('DELETE FROM ledger WHERE id % 50 = 0');
    const jobId = await triggerSyncOk(t, user, workspaceId, connection.id);
    await syncMidway(t, user, workspaceId, connection.id, jobId, ({ records_read: read = 0 }) => read >= 4_000 && read <= 30_000);
    await workers.killAll();
    expect((await syncJob(t, user, workspaceId, connection.id, jobId)).status).toBe('running');
    await workers.start();
    const done = await waitForSync(t, user, workspaceId, connection.id, jobId, ['succeeded', 'failed', 'cancelled'], 180_000);
    expect(done.status).toBe('succeeded');
    const { lake, source: expected } = await state();
    expect(lake).toEqual(expected);
    expect(lake[0]).toMatchObject({ n: 23_520, d: 23_520 });

    // And the slot was confirmed past everything: a sync now finds nothing to do.
    const idle = await waitForSync(t, user, workspaceId, connection.id, await triggerSyncOk(t, user, workspaceId, connection.id), undefined, 60_000);
    expect(idle.streams[0]).toMatchObject({ status: 'succeeded', records_read: 0 });
  }, 400_000);
});
