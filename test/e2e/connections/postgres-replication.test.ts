import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import { bodyOf } from '../../support/http';
import {
  connectionsPath,
  createConnection,
  createConnectionOk,
  createSourceDatabase,
  postgresSpec,
  queryRows,
  syncOk,
  triggerSync,
  triggerSyncOk,
  waitForSync,
  type SourceDatabase,
} from '../../support/connections';
import { namedQuery } from '../../../src/store/named-query';
import { withWorkspace } from '../../support/fixtures';

const comparedLongAgo = namedQuery<{ connection_id: string }>(
  'test.keys_compared_long_ago',
  "UPDATE sync_states SET keys_compared_at = '2000-01-01T00:00:00.000Z' WHERE connection_id = :connection_id",
);

/**
 * Postgres sources that replicate logically (the test cluster runs with wal_level=logical): a stream in
 * incremental_append_deduped reads the WAL through the connection's own slot and publication, so that
 * inserts, updates, deletes and truncates reach the lake; the slot goes with the connection or its mode.
 */
describe('postgres logical replication', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  let source: SourceDatabase;

  const slotName = (connectionId: string) => `oxbow_${connectionId.replaceAll('-', '')}`;
  const slotsOf = async (connectionId: string) => {
    const [row] = await source.sql.unsafe(
      `SELECT (SELECT count(*) FROM pg_replication_slots WHERE slot_name = '${slotName(connectionId)}')::int AS slots, (SELECT count(*) FROM pg_publication WHERE pubname = '${slotName(connectionId)}')::int AS publications`,
    );
    return { slots: Number(row?.slots), publications: Number(row?.publications) };
  };
  const sourceRows = async (table: string) =>
    (await source.sql.unsafe(`SELECT id::int AS id, name FROM ${table} ORDER BY id`)).map((row) => ({ id: row.id, name: row.name }));
  const lakeRows = async (table: string, where = 'true') =>
    queryRows(t, user, workspaceId, `SELECT id::INTEGER AS id, name FROM ${table} WHERE ${where} ORDER BY id`);
  const replicated = (name: string, table: string, extra: Record<string, unknown> = {}) =>
    createConnectionOk(t, user, workspaceId, {
      name,
      connector_type: 'postgres',
      spec: postgresSpec(source, { replication_method: 'logical' }),
      streams: [{ name: table, sync_mode: 'incremental_append_deduped' }],
      ...extra,
    });
  const items = async (table: string, rows: number) => {
    await source.sql.unsafe(
      `CREATE TABLE ${table} (id bigint PRIMARY KEY, name text, amount numeric(10,2), note text, updated_at timestamptz NOT NULL DEFAULT now())`,
    );
    await source.sql.unsafe(`INSERT INTO ${table} (id, name, amount) SELECT g, 'item ' || g, g * 1.25 FROM generate_series(1, ${rows}) g`);
  };

  beforeAll(async () => {
    source = await createSourceDatabase();
    ({ t, user, workspaceId } = await withWorkspace('local', {
      worker: true,
      env: { SYNC_BATCH_ROWS: '400', SYNC_SCAN_BATCH_ROWS: '400' },
      label: 'pg-replication',
      plan: 'business',
    }));
  });
  afterAll(async () => {
    await t.stop();
    await source.drop();
  });

  test('inserts, updates (a key changed, a TOASTed value kept), deletes and a truncate reach the lake at the next sync; the slot holds the changes meanwhile', async () => {
    await items('repl_items', 1_000);
    const connection = await replicated('repl', 'repl_items');
    const first = await syncOk(t, user, workspaceId, connection.id);
    expect(first.records_written).toBe(1_000);
    expect(await slotsOf(connection.id)).toEqual({ slots: 1, publications: 1 });

    await source.sql.unsafe(`INSERT INTO repl_items (id, name, amount) SELECT g, 'new ' || g, 1 FROM generate_series(1001, 1010) g`);
    await source.sql.unsafe(`UPDATE repl_items SET name = 'changed', note = repeat('toasted ', 5000) WHERE id BETWEEN 10 AND 14`);
    await source.sql.unsafe(`DELETE FROM repl_items WHERE id <= 7 OR id = 1005`);
    await source.sql.unsafe(`UPDATE repl_items SET id = 5000 WHERE id = 500`);
    const second = await syncOk(t, user, workspaceId, connection.id);
    // Ids 1 to 7 and the old id 500 (1005 came and went between two syncs: the lake never had it).
    expect(second.streams[0]).toMatchObject({ name: 'repl_items', status: 'succeeded', records_deleted: 8 });
    expect(second.streams[0].bytes_read).toBeGreaterThan(15 * 20);
    expect(await lakeRows('repl.repl_items')).toEqual(await sourceRows('repl_items'));

    // An update that leaves the TOASTed note alone: the log does not carry it, the lake keeps it.
    await source.sql.unsafe(`UPDATE repl_items SET name = 'again' WHERE id = 10`);
    await syncOk(t, user, workspaceId, connection.id);
    expect(await queryRows(t, user, workspaceId, 'SELECT name, length(note) AS n FROM repl.repl_items WHERE id = 10')).toEqual([{ name: 'again', n: 40_000 }]);

    // A truncate takes every row; what is inserted after it stays.
    await source.sql.unsafe(`TRUNCATE repl_items; INSERT INTO repl_items (id, name) VALUES (1, 'a'), (2, 'b'), (3, 'c')`);
    await syncOk(t, user, workspaceId, connection.id);
    expect(await lakeRows('repl.repl_items')).toEqual([
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
      { id: 3, name: 'c' },
    ]);
    const [state] = await bodyOf(await t.request(`${connectionsPath(workspaceId)}/${connection.id}/sync-status`, { token: user.accessToken }));
    expect(state).toMatchObject({ stream: 'repl_items', sync_mode: 'incremental_append_deduped', status: 'succeeded', records_total: 3 });
    expect(String(state.cursor_value)).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);

    // Nothing changed: nothing written, nothing deleted.
    const idle = await syncOk(t, user, workspaceId, connection.id);
    expect(idle.streams[0]).toMatchObject({ records_written: 0, records_deleted: 0 });
  }, 120_000);

  test('deletion_mode mark keeps deleted rows with _deleted_at; a key deleted and inserted again is live', async () => {
    await items('marked_items', 50);
    const connection = await replicated('marked', 'marked_items', { deletion_mode: 'mark' });
    await syncOk(t, user, workspaceId, connection.id);
    await source.sql.unsafe(`DELETE FROM marked_items WHERE id IN (1, 2, 3)`);
    await source.sql.unsafe(`INSERT INTO marked_items (id, name) VALUES (2, 'back')`);
    const job = await syncOk(t, user, workspaceId, connection.id);
    expect(job.streams[0].records_deleted).toBe(2);
    const rows = await queryRows(
      t,
      user,
      workspaceId,
      'SELECT id::INTEGER AS id, name, _deleted_at IS NOT NULL AS deleted FROM marked.marked_items WHERE id <= 4 ORDER BY id',
    );
    expect(rows).toEqual([
      { id: 1, name: 'item 1', deleted: true },
      { id: 2, name: 'back', deleted: false },
      { id: 3, name: 'item 3', deleted: true },
      { id: 4, name: 'item 4', deleted: false },
    ]);
    expect(await queryRows(t, user, workspaceId, 'SELECT count(*) AS n FROM marked.marked_items WHERE _deleted_at IS NULL')).toEqual([{ n: 48 }]);
  }, 60_000);

  test('a table whose deletes carry no key is refused with what to change; the slot and publication go when the mode changes and when the connection goes', async () => {
    await items('keyless_items', 5);
    await source.sql.unsafe('ALTER TABLE keyless_items REPLICA IDENTITY NOTHING');
    const refused = await replicated('keyless', 'keyless_items');
    const failed = await waitForSync(t, user, workspaceId, refused.id, await triggerSyncOk(t, user, workspaceId, refused.id));
    expect(failed.status).toBe('failed');
    expect(failed.streams[0].error).toContain('REPLICA IDENTITY');

    await items('moving_items', 5);
    const moving = await replicated('moving', 'moving_items');
    await syncOk(t, user, workspaceId, moving.id);
    expect(await slotsOf(moving.id)).toEqual({ slots: 1, publications: 1 });
    const patched = await t.request(`${connectionsPath(workspaceId)}/${moving.id}`, {
      method: 'PATCH',
      json: {
        spec: { replication_method: 'cursor' },
        streams: [{ name: 'moving_items', sync_mode: 'incremental_append_deduped', cursor_field: 'updated_at' }],
      },
      token: user.accessToken,
    });
    expect(patched.status).toBe(200);
    expect(await slotsOf(moving.id)).toEqual({ slots: 0, publications: 0 });

    await items('gone_items', 5);
    const gone = await replicated('gone', 'gone_items');
    await syncOk(t, user, workspaceId, gone.id);
    expect(await slotsOf(gone.id)).toEqual({ slots: 1, publications: 1 });
    expect((await t.request(`${connectionsPath(workspaceId)}/${gone.id}`, { method: 'DELETE', token: user.accessToken })).status).toBe(204);
    expect(await slotsOf(gone.id)).toEqual({ slots: 0, publications: 0 });
  }, 90_000);

  test('an incremental mode without a cursor is refused at create, PATCH and trigger with 422, naming the candidates', async () => {
    await items('cursor_items', 5);
    const spec = postgresSpec(source);
    const create = await createConnection(t, user, workspaceId, {
      name: 'no_cursor',
      connector_type: 'postgres',
      spec,
      streams: [{ name: 'cursor_items', sync_mode: 'incremental_append' }],
    });
    expect(create.status).toBe(422);
    const [issue] = (await bodyOf(create)).detail;
    expect(issue.loc).toEqual(['body', 'streams', 0, 'cursor_field']);
    expect(issue.msg).toContain('id, amount, updated_at');

    const connection = await createConnectionOk(t, user, workspaceId, {
      name: 'with_cursor',
      connector_type: 'postgres',
      spec,
      streams: [{ name: 'cursor_items', sync_mode: 'incremental_append', cursor_field: 'updated_at' }],
    });
    const patch = await t.request(`${connectionsPath(workspaceId)}/${connection.id}`, {
      method: 'PATCH',
      json: { streams: [{ name: 'cursor_items', sync_mode: 'incremental_append_deduped' }] },
      token: user.accessToken,
    });
    expect(patch.status).toBe(422);
    expect((await bodyOf(patch)).detail[0].msg).toContain('updated_at');

    const full = await createConnectionOk(t, user, workspaceId, { name: 'full_only', connector_type: 'postgres', spec, streams: [{ name: 'cursor_items' }] });
    const trigger = await triggerSync(t, user, workspaceId, full.id, { sync_mode: { cursor_items: 'incremental_append' } });
    expect(trigger.status).toBe(422);
    expect((await bodyOf(trigger)).detail[0]).toMatchObject({ loc: ['body', 'sync_mode', 'cursor_items'] });
    expect(await bodyOf(await t.request(`${connectionsPath(workspaceId)}/${full.id}/sync-jobs`, { token: user.accessToken }))).toEqual([]);
  });

  test('where the source does not replicate, a periodic key comparison deletes the rows whose keys are gone', async () => {
    await items('compared_items', 30);
    const connection = await createConnectionOk(t, user, workspaceId, {
      name: 'compared',
      connector_type: 'postgres',
      spec: postgresSpec(source),
      key_comparison_every: '24h',
      streams: [{ name: 'compared_items', sync_mode: 'incremental_append_deduped', cursor_field: 'updated_at' }],
    });
    expect(connection.key_comparison_every).toBe('24h');
    expect((await syncOk(t, user, workspaceId, connection.id)).streams[0]).toMatchObject({ records_written: 30, records_deleted: 0 });
    await source.sql.unsafe('DELETE FROM compared_items WHERE id IN (4, 5, 6)');
    // Compared a moment ago: not due yet, the rows stay.
    expect((await syncOk(t, user, workspaceId, connection.id)).streams[0].records_deleted).toBe(0);
    expect((await lakeRows('compared.compared_items')).length).toBe(30);
    await t.infra.store.run(comparedLongAgo, { connection_id: connection.id });
    expect((await syncOk(t, user, workspaceId, connection.id)).streams[0].records_deleted).toBe(3);
    expect(await lakeRows('compared.compared_items')).toEqual(await sourceRows('compared_items'));
    const refused = await t.request(`${connectionsPath(workspaceId)}/${connection.id}`, {
      method: 'PATCH',
      json: { key_comparison_every: '5m' },
      token: user.accessToken,
    });
    expect(refused.status).toBe(422);
  });
});
