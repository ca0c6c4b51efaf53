import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import { serviceEnvOf } from '../../support/service-env';
import { WorkerProcesses, type ServiceProcess } from '../../support/service-process';
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
 * The API in this process, the worker in another, as deployed: the worker is killed with SIGKILL in
 * the middle of a sync of many batches, and a new one finishes the job from the last batch that
 * committed, so that the table holds every source row exactly once.
 */
describe('a sync survives its worker being killed', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  let source: SourceDatabase;
  // Small batches of both kinds: once autovacuum has analysed a table, a full refresh would otherwise
  // read it in a single scan, with no midway to be killed in.
  const workers = new WorkerProcesses(() => ({ ...serviceEnvOf(t), LOG_LEVEL: 'warn', SYNC_BATCH_ROWS: '200', SYNC_SCAN_BATCH_ROWS: '200' }));

  /**
   * Waits until the job has committed some batches and has many to go (at least 40 batches of 200 in
   * every sync here), then kills the worker. Small batches keep that window seconds wide on a fast
   * machine: the job's live progress moves once a second.
   */
  const killMidway = async (worker: ServiceProcess, connectionId: string, jobId: string, total: number) => {
    await syncMidway(t, user, workspaceId, connectionId, jobId, ({ records_written: written = 0 }) => written >= 1_000 && written <= total - 5_000);
    await workers.kill(worker);
  };

  beforeAll(async () => {
    source = await createSourceDatabase();
    // One table per test, so that each test's rows are its own whatever the order.
    for (const table of ['readings', 'snapshot_readings']) {
      await source.sql.unsafe(`CREATE TABLE ${table} (id bigint PRIMARY KEY, sensor text, value double precision, taken_at timestamptz NOT NULL)`);
      await source.sql.unsafe(`CREATE INDEX ON ${table} (taken_at)`);
      await source.sql.unsafe(
        `INSERT INTO ${table} SELECT g, 's' || (g % 17), g * 0.25, timestamptz '2024-01-01' + g * interval '1 second' FROM generate_series(1, 16000) g`,
      );
      // Analysed now rather than whenever autovacuum comes by: the source's row estimate plans a full refresh.
      await source.sql.unsafe(`ANALYZE ${table}`);
    }
    ({ t, user, workspaceId } = await withWorkspace('local', { label: 'sync-crash' }));
  });
  afterEach(() => workers.killAll());
  afterAll(async () => {
    await t.stop();
    await source.drop();
  });

  /** Starts a sync with one worker up, kills that worker midway, starts another and waits for the job to close. */
  const syncThroughAKill = async (connectionId: string, rowsToRead: number) => {
    const worker = workers.newest ?? (await workers.start());
    const jobId = await triggerSyncOk(t, user, workspaceId, connectionId);
    await killMidway(worker, connectionId, jobId, rowsToRead);
    expect((await syncJob(t, user, workspaceId, connectionId, jobId)).status).toBe('running');
    await workers.start();
    return waitForSync(t, user, workspaceId, connectionId, jobId, ['succeeded', 'failed', 'cancelled'], 150_000);
  };
  const tableState = (table: string) => queryRows(t, user, workspaceId, `SELECT count(*) AS n, count(DISTINCT id) AS d, sum(id) AS s FROM ${table}`);

  test('kill -9 during a full refresh: the new table holds every row once, swapped in whole', async () => {
    const connection = await createConnectionOk(t, user, workspaceId, {
      name: 'sensors_full',
      connector_type: 'postgres',
      spec: postgresSpec(source),
      streams: [{ name: 'snapshot_readings', sync_mode: 'full_refresh_overwrite' }],
    });
    const full = await syncThroughAKill(connection.id, 16_000);
    expect(full.status).toBe('succeeded');
    expect(full.records_written).toBe(16_000);
    expect(await tableState('sensors_full.snapshot_readings')).toEqual([{ n: 16_000, d: 16_000, s: 128_008_000 }]);
  }, 300_000);

  test('kill -9 during a first incremental sync, then during one of new rows: every row exactly once', async () => {
    const connection = await createConnectionOk(t, user, workspaceId, {
      name: 'sensors',
      connector_type: 'postgres',
      spec: postgresSpec(source, { schemas: ['public'] }),
      streams: [{ name: 'readings', sync_mode: 'incremental_append', cursor_field: 'taken_at' }],
    });
    const first = await syncThroughAKill(connection.id, 16_000);
    expect(first.status).toBe('succeeded');
    expect(first.records_written).toBe(16_000);
    expect(await tableState('sensors.readings')).toEqual([{ n: 16_000, d: 16_000, s: 128_008_000 }]);

    await source.sql.unsafe(
      `INSERT INTO readings SELECT g, 'new', g * 0.25, timestamptz '2025-01-01' + g * interval '1 second' FROM generate_series(16001, 30000) g`,
    );
    const incremental = await syncThroughAKill(connection.id, 14_000);
    expect(incremental.status).toBe('succeeded');
    expect(incremental.records_written).toBe(14_000);
    expect(await tableState('sensors.readings')).toEqual([{ n: 30_000, d: 30_000, s: 450_015_000 }]);
  }, 400_000);
});
