import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import { bodyOf } from '../../support/http';
import {
  connectionsPath,
  createConnectionOk,
  createSourceDatabase,
  postgresSpec,
  queryRows,
  syncJob,
  syncOk,
  triggerSync,
  triggerSyncOk,
  waitForSync,
  type SourceDatabase,
} from '../../support/connections';
import type { SyncCompleted } from '../../../src/connections/sync-listeners';
import { namedQuery } from '../../../src/store/named-query';
import { withWorkspace } from '../../support/fixtures';

const usageOf = namedQuery<{ job_id: string }, { source: string; status: string; rows_returned: number; cpu_ms: number }>(
  'test.sync_usage',
  'SELECT source, status, rows_returned, cpu_ms FROM query_usage WHERE job_id = :job_id',
);

describe('postgres sync modes', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  let source: SourceDatabase;
  const heard: SyncCompleted[] = [];

  /** A source table of the test's own: `<name>` (id key, kind, amount, updated_at), `rows` rows. */
  const table = async (name: string, rows: number) => {
    await source.sql.unsafe(`CREATE TABLE ${name} (id bigint PRIMARY KEY, kind text, amount int, updated_at timestamptz NOT NULL)`);
    await source.sql.unsafe(`CREATE INDEX ON ${name} (updated_at)`);
    await source.sql.unsafe(
      `INSERT INTO ${name} SELECT g, 'k' || (g % 5), g % 100, timestamptz '2024-01-01' + g * interval '1 second' FROM generate_series(1, ${rows}) g`,
    );
  };
  const connect = (name: string, tables: string[], streams: Record<string, unknown>[] | null = null) =>
    createConnectionOk(t, user, workspaceId, {
      name,
      connector_type: 'postgres',
      spec: postgresSpec(source),
      streams: streams ?? tables.map((stream) => ({ name: stream })),
    });

  beforeAll(async () => {
    source = await createSourceDatabase();
    // Scan batches as small as the others: a full refresh of a table autovacuum has analysed still runs in many batches.
    ({ t, user, workspaceId } = await withWorkspace('local', {
      worker: true,
      env: { SYNC_BATCH_ROWS: '500', SYNC_SCAN_BATCH_ROWS: '500' },
      extensions: { syncListeners: [{ afterSync: async (event) => void heard.push(event) }] },
      label: 'pg-modes',
      plan: 'business',
    }));
  });
  afterAll(async () => {
    await t.stop();
    await source.drop();
  });

  test('incremental_append takes the rows beyond the cursor; new columns are added and wider types widened, and the job says so', async () => {
    await table('inc_events', 1_200);
    const connection = await connect('inc', [], [{ name: 'inc_events', sync_mode: 'incremental_append', cursor_field: 'updated_at' }]);
    expect((await syncOk(t, user, workspaceId, connection.id)).records_written).toBe(1_200);
    await source.sql.unsafe(`ALTER TABLE inc_events ADD COLUMN channel text; ALTER TABLE inc_events ALTER COLUMN amount TYPE bigint`);
    await source.sql.unsafe(
      `INSERT INTO inc_events SELECT g, 'late', 5000000000, timestamptz '2025-01-01' + g * interval '1 second', 'web' FROM generate_series(1201, 1210) g`,
    );
    const second = await syncOk(t, user, workspaceId, connection.id);
    expect(second.records_written).toBe(10);
    expect(second.schema_changes).toEqual([
      { table: 'inc.inc_events', column: 'amount', change: 'widened', from: 'INTEGER', to: 'BIGINT' },
      { table: 'inc.inc_events', column: 'channel', change: 'added', to: 'VARCHAR' },
    ]);
    expect(
      await queryRows(t, user, workspaceId, 'SELECT count(*) AS n, count(DISTINCT id) AS d, max(amount) AS top, count(channel) AS c FROM inc.inc_events'),
    ).toEqual([{ n: 1_210, d: 1_210, top: 5_000_000_000, c: 10 }]);
    const [state] = await bodyOf(await t.request(`${connectionsPath(workspaceId)}/${connection.id}/sync-status`, { token: user.accessToken }));
    expect(state).toMatchObject({
      stream: 'inc_events',
      sync_mode: 'incremental_append',
      cursor_field: 'updated_at',
      cursor_value: '2025-01-01 00:20:10+00',
      records_total: 1_210,
      status: 'succeeded',
    });
  });

  test('incremental_append_deduped upserts changed rows on the primary key', async () => {
    await table('ded_events', 1_000);
    const connection = await connect('ded', [], [{ name: 'ded_events', sync_mode: 'incremental_append_deduped', cursor_field: 'updated_at' }]);
    const first = await syncOk(t, user, workspaceId, connection.id);
    await source.sql.unsafe(`UPDATE ded_events SET kind = 'changed', updated_at = now() WHERE id <= 5`);
    await source.sql.unsafe(`INSERT INTO ded_events SELECT g, 'new', 1, now() FROM generate_series(1001, 1005) g`);
    const second = await syncOk(t, user, workspaceId, connection.id);
    expect(second.records_written).toBe(10);
    expect(
      await queryRows(t, user, workspaceId, "SELECT count(*) AS n, count(DISTINCT id) AS d, count(*) FILTER (WHERE kind = 'changed') AS c FROM ded.ded_events"),
    ).toEqual([{ n: 1_005, d: 1_005, c: 5 }]);
    // Each job names the snapshot its writes made: the table as that sync left it.
    const asFirstLeftIt = `SELECT count(*) AS n, count(*) FILTER (WHERE kind = 'changed') AS c FROM ded.ded_events AT (VERSION => ${first.snapshot_id})`;
    expect(await queryRows(t, user, workspaceId, asFirstLeftIt)).toEqual([{ n: 1_000, c: 0 }]);
    expect(second.snapshot_id).toBeGreaterThan(first.snapshot_id);
    const metadata = await bodyOf(await t.request(`/api/v1/workspaces/${workspaceId}/query/tables/ded.ded_events/metadata`, { token: user.accessToken }));
    expect(metadata.primary_key).toEqual(['id']);
  });

  test('full_refresh_append adds every row again; full_refresh_overwrite replaces the table; a table without a key is read in one batch', async () => {
    await source.sql.unsafe(`CREATE TABLE keyless (n int, label text); INSERT INTO keyless SELECT g, 'l' || g FROM generate_series(1, 700) g`);
    const connection = await connect('keyless', ['keyless'], [{ name: 'keyless', sync_mode: 'full_refresh_append' }]);
    await syncOk(t, user, workspaceId, connection.id);
    await syncOk(t, user, workspaceId, connection.id);
    expect(await queryRows(t, user, workspaceId, 'SELECT count(*) AS n FROM keyless.keyless')).toEqual([{ n: 1_400 }]);
    await source.sql.unsafe(`DELETE FROM keyless WHERE n > 600`);
    const overwrite = await syncOk(t, user, workspaceId, connection.id, { sync_mode: { keyless: 'full_refresh_overwrite' } });
    expect(overwrite.streams).toEqual([expect.objectContaining({ sync_mode: 'full_refresh_overwrite', records_written: 600 })]);
    expect(await queryRows(t, user, workspaceId, 'SELECT count(*) AS n FROM keyless.keyless')).toEqual([{ n: 600 }]);
    const listing = await bodyOf(await t.request(`/api/v1/workspaces/${workspaceId}/query/tables`, { token: user.accessToken }));
    expect(listing.tables.filter((entry: { schema_name: string }) => entry.schema_name === 'keyless').map((entry: { name: string }) => entry.name)).toEqual([
      'keyless',
    ]);
  });

  test('a full refresh that overwrites is never seen half done; live progress per stream; a second sync meanwhile is 409', async () => {
    await table('big', 40_000);
    const connection = await connect('big', ['big']);
    const first = await syncOk(t, user, workspaceId, connection.id);
    expect(first.records_written).toBe(40_000);
    await source.sql.unsafe('DELETE FROM big WHERE id > 30000');
    const jobId = await triggerSyncOk(t, user, workspaceId, connection.id);
    const second = await triggerSync(t, user, workspaceId, connection.id);
    expect(second.status).toBe(409);
    expect((await bodyOf(second)).detail.error.code).toBe('SYNC_IN_PROGRESS');
    /** What each look saw: the table's count, the job's status and rows written. */
    const looks: { count: number; status: string; written: number }[] = [];
    let sawProgress = false;
    for (;;) {
      const job = await syncJob(t, user, workspaceId, connection.id, jobId);
      const written = job.streams[0]?.records_written ?? 0;
      if (job.status === 'running' && written > 0 && written < 30_000) sawProgress = true;
      const count = Number((await queryRows(t, user, workspaceId, 'SELECT count(*) AS n FROM big.big'))[0]!.n);
      looks.push({ count, status: job.status, written });
      if (!['pending', 'running'].includes(job.status)) break;
      await Bun.sleep(50);
    }
    expect(sawProgress).toBe(true);
    // Every look sees the old table or the new one; a failure lists the looks that saw neither.
    expect(looks.filter((look) => look.count !== 40_000 && look.count !== 30_000)).toEqual([]);
    expect(await queryRows(t, user, workspaceId, 'SELECT count(*) AS n FROM big.big')).toEqual([{ n: 30_000 }]);
  });

  test('the trigger’s body: none, null, some streams, full_refresh; jobs most recent first; usage of kind sync; listeners hear of changed tables', async () => {
    await table('pick_a', 10);
    await table('pick_b', 20);
    const connection = await connect('pick', ['pick_a', 'pick_b']);
    const first = await syncOk(t, user, workspaceId, connection.id, null);
    const second = await syncOk(t, user, workspaceId, connection.id, { streams: ['pick_b'] });
    expect(second.streams.map((stream: { name: string }) => stream.name)).toEqual(['pick_b']);
    const third = await syncOk(t, user, workspaceId, connection.id, { full_refresh: true });
    const unknown = await waitForSync(t, user, workspaceId, connection.id, await triggerSyncOk(t, user, workspaceId, connection.id, { streams: ['pick_c'] }));
    expect(unknown.status).toBe('failed');
    expect(unknown.streams).toEqual([expect.objectContaining({ name: 'pick_c', status: 'failed', error: 'The source has no stream pick_c' })]);
    const list = await t.request(`${connectionsPath(workspaceId)}/${connection.id}/sync-jobs?limit=3`, { token: user.accessToken });
    expect(list.headers.get('x-total-count')).toBe('4');
    expect((await bodyOf(list)).map((job: { id: string }) => job.id)).toEqual([unknown.id, third.id, second.id]);
    const everywhere = await bodyOf(await t.request(`${connectionsPath(workspaceId)}/sync-jobs?limit=200`, { token: user.accessToken }));
    expect(everywhere.map((job: { id: string }) => job.id)).toContain(first.id);
    expect(first).toMatchObject({
      trigger: 'manual',
      connection_name: 'pick',
      workflow_id: first.id,
      error: null,
      snapshot_id: expect.any(Number),
      duration_ms: expect.any(Number),
    });
    expect(await t.infra.store.all(usageOf, { job_id: first.id })).toEqual([
      { source: 'sync', status: 'succeeded', rows_returned: 30, cpu_ms: expect.any(Number) },
    ]);
    expect(heard).toContainEqual({ workspaceId, connectionId: connection.id, jobId: second.id, changedTables: ['pick.pick_b'] });
    const connectionNow = await bodyOf(await t.request(`${connectionsPath(workspaceId)}/${connection.id}`, { token: user.accessToken }));
    expect(connectionNow).toMatchObject({ last_sync_status: 'failed', last_sync_at: expect.any(String) });
  });

  test('deleting a connection stops its running sync; its tables stay unless drop_tables=true', async () => {
    await table('doomed', 30_000);
    await table('kept', 10);
    const kept = await connect('kept', ['kept']);
    await syncOk(t, user, workspaceId, kept.id);
    expect((await t.request(`${connectionsPath(workspaceId)}/${kept.id}`, { method: 'DELETE', token: user.accessToken })).status).toBe(204);
    expect(await queryRows(t, user, workspaceId, 'SELECT count(*) AS n FROM kept.kept')).toEqual([{ n: 10 }]);

    // Its first sync is stopped midway: the batches it committed made the table that drop_tables removes.
    const doomed = await connect('doomed', ['doomed'], [{ name: 'doomed', sync_mode: 'full_refresh_append' }]);
    const jobId = await triggerSyncOk(t, user, workspaceId, doomed.id);
    for (
      let job = await syncJob(t, user, workspaceId, doomed.id, jobId);
      job.status !== 'running' || job.streams[0]?.records_written === 0;
      job = await syncJob(t, user, workspaceId, doomed.id, jobId)
    ) {
      await Bun.sleep(50);
    }
    expect((await t.request(`${connectionsPath(workspaceId)}/${doomed.id}?drop_tables=true`, { method: 'DELETE', token: user.accessToken })).status).toBe(204);
    const jobs = await bodyOf(await t.request(`${connectionsPath(workspaceId)}/sync-jobs`, { token: user.accessToken }));
    expect(jobs.find((job: { id: string }) => job.id === jobId).status).toBe('cancelled');
    const listing = await bodyOf(await t.request(`/api/v1/workspaces/${workspaceId}/query/tables`, { token: user.accessToken }));
    expect(listing.tables.some((entry: { schema_name: string }) => entry.schema_name === 'doomed')).toBe(false);
  });
});
