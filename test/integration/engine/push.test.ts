import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../../support/backends';
import type { TestApp } from '../../support/test-app';
import { bodyOf } from '../../support/http';
import type { TestUser } from '../../support/accounts';
import { columnsOf, push, pushOk, query } from '../../support/lake';
import { withWorkspace } from '../../support/fixtures';

for (const backend of backends) {
  describe(`push on ${backend}`, () => {
    let t: TestApp, user: TestUser, workspaceId: string;
    let counter = 0;
    const newTable = () => `raw.t${Date.now().toString(36)}_${++counter}`;

    beforeAll(async () => ({ t, user, workspaceId } = await withWorkspace(backend, { label: 'pusher' })));
    afterAll(() => t.stop());

    test('creates the table and infers the types', async () => {
      const table = newTable();
      const result = await pushOk(t, workspaceId, user, {
        table,
        records: [
          { id: 1, price: 9.5, paid: true, at: '2026-11-21T10:00:00Z', day: '2026-11-21', name: 'ann', meta: { a: 1 }, tags: ['x'] },
          { id: 2, price: 3, paid: false, at: '2026-11-21T11:30:00+02:00', day: '2026-11-22', name: 'bob', meta: null, tags: [] },
        ],
      });
      expect(result).toEqual({ records_written: 2, table });
      expect(await columnsOf(t, workspaceId, table, user)).toEqual({
        id: 'BIGINT',
        price: 'DOUBLE',
        paid: 'BOOLEAN',
        at: 'TIMESTAMP WITH TIME ZONE',
        day: 'DATE',
        name: 'VARCHAR',
        meta: 'JSON',
        tags: 'JSON',
      });
      const rows = await query(t, workspaceId, `SELECT id, price, paid, "at", day, meta, tags FROM ${table} ORDER BY id`);
      expect(rows).toEqual([
        { id: 1, price: 9.5, paid: true, at: '2026-11-21T10:00:00.000Z', day: '2026-11-21', meta: { a: 1 }, tags: ['x'] },
        { id: 2, price: 3, paid: false, at: '2026-11-21T09:30:00.000Z', day: '2026-11-22', meta: null, tags: [] },
      ]);
    });

    test('new fields become nullable columns; missing fields are NULL', async () => {
      const table = newTable();
      await pushOk(t, workspaceId, user, { table, records: [{ id: 1, a: 'x' }] });
      await pushOk(t, workspaceId, user, { table, records: [{ id: 2, b: 5 }] });
      expect(await columnsOf(t, workspaceId, table, user)).toEqual({ id: 'BIGINT', a: 'VARCHAR', b: 'BIGINT' });
      expect(await query(t, workspaceId, `SELECT * FROM ${table} ORDER BY id`)).toEqual([
        { id: 1, a: 'x', b: null },
        { id: 2, a: null, b: 5 },
      ]);
    });

    test('a push that widens a type evolves the column: BIGINT → DOUBLE → VARCHAR', async () => {
      const table = newTable();
      await pushOk(t, workspaceId, user, { table, records: [{ v: 1 }] });
      await pushOk(t, workspaceId, user, { table, records: [{ v: 2.5 }] });
      expect(await columnsOf(t, workspaceId, table, user)).toEqual({ v: 'DOUBLE' });
      await pushOk(t, workspaceId, user, { table, records: [{ v: 'three' }] });
      expect(await columnsOf(t, workspaceId, table, user)).toEqual({ v: 'VARCHAR' });
      expect((await query(t, workspaceId, `SELECT v FROM ${table} ORDER BY v`)).map((row) => row.v)).toEqual(['1.0', '2.5', 'three']);
    });

    test('mixed values within one push take the widest type', async () => {
      const table = newTable();
      await pushOk(t, workspaceId, user, {
        table,
        records: [
          { n: 1, d: '2026-01-01', s: 1 },
          { n: 1.5, d: '2026-01-02T03:04:05Z', s: true },
        ],
      });
      expect(await columnsOf(t, workspaceId, table, user)).toEqual({ n: 'DOUBLE', d: 'TIMESTAMP WITH TIME ZONE', s: 'VARCHAR' });
    });

    test('with a primary key a push upserts, and the last duplicate in one push wins', async () => {
      const table = newTable();
      await pushOk(t, workspaceId, user, {
        table,
        primary_key: ['id'],
        records: [
          { id: 1, v: 'a' },
          { id: 2, v: 'b' },
        ],
      });
      const second = await pushOk(t, workspaceId, user, {
        table,
        primary_key: ['id'],
        records: [
          { id: 2, v: 'B' },
          { id: 3, v: 'c' },
          { id: 3, v: 'C' },
        ],
      });
      expect(second.records_written).toBe(2);
      expect(await query(t, workspaceId, `SELECT id, v FROM ${table} ORDER BY id`)).toEqual([
        { id: 1, v: 'a' },
        { id: 2, v: 'B' },
        { id: 3, v: 'C' },
      ]);
      // Without primary_key, a push into a keyed table still upserts on the table's key.
      await pushOk(t, workspaceId, user, { table, records: [{ id: 1, v: 'A' }] });
      expect(await query(t, workspaceId, `SELECT count(*)::INTEGER AS n, max(v) AS top FROM ${table}`)).toEqual([{ n: 3, top: 'C' }]);
    });

    test('composite keys upsert on all their columns', async () => {
      const table = newTable();
      await pushOk(t, workspaceId, user, {
        table,
        primary_key: ['a', 'b'],
        records: [
          { a: 1, b: 'x', v: 1 },
          { a: 1, b: 'y', v: 2 },
        ],
      });
      await pushOk(t, workspaceId, user, { table, primary_key: ['b', 'a'], records: [{ a: 1, b: 'y', v: 20 }] });
      expect(await query(t, workspaceId, `SELECT a, b, v FROM ${table} ORDER BY b`)).toEqual([
        { a: 1, b: 'x', v: 1 },
        { a: 1, b: 'y', v: 20 },
      ]);
    });

    test('a push with a different primary key is 409 CONFLICT and writes nothing', async () => {
      const table = newTable();
      await pushOk(t, workspaceId, user, { table, primary_key: ['id'], records: [{ id: 1, other: 1 }] });
      const response = await push(t, workspaceId, user, { table, primary_key: ['other'], records: [{ id: 2, other: 2 }] });
      expect(response.status).toBe(409);
      expect((await bodyOf(response)).detail.error.code).toBe('CONFLICT');
      expect(await query(t, workspaceId, `SELECT count(*)::INTEGER AS n FROM ${table}`)).toEqual([{ n: 1 }]);
      const keyless = newTable();
      await pushOk(t, workspaceId, user, { table: keyless, records: [{ id: 1 }] });
      expect((await push(t, workspaceId, user, { table: keyless, primary_key: ['id'], records: [{ id: 1 }] })).status).toBe(409);
    });

    test('overwrite replaces the rows in one push', async () => {
      const table = newTable();
      await pushOk(t, workspaceId, user, { table, records: [{ id: 1 }, { id: 2 }] });
      await pushOk(t, workspaceId, user, { table, mode: 'overwrite', records: [{ id: 3 }] });
      expect(await query(t, workspaceId, `SELECT id FROM ${table}`)).toEqual([{ id: 3 }]);
    });

    test('every push is exactly one snapshot', async () => {
      const table = newTable();
      const snapshots = async () =>
        (await bodyOf(await t.request(`/api/v1/workspaces/${workspaceId}/query/tables/${table}/metadata`, { token: user.accessToken }))).current_snapshot;
      await pushOk(t, workspaceId, user, { table, primary_key: ['id'], records: [{ id: 1 }] });
      const before = await snapshots();
      await pushOk(t, workspaceId, user, {
        table,
        primary_key: ['id'],
        records: [
          { id: 1, extra: 'new column' },
          { id: 2, extra: 'x' },
        ],
      });
      expect(await snapshots()).toBe(before + 1);
      await pushOk(t, workspaceId, user, { table, mode: 'overwrite', records: [{ id: 5, extra: 5.5 }] });
      expect(await snapshots()).toBe(before + 2);
    });

    test('concurrent pushes to one table all land', async () => {
      const table = newTable();
      await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          pushOk(t, workspaceId, user, { table, records: Array.from({ length: 50 }, (__, row) => ({ batch: index, row })) }),
        ),
      );
      expect(await query(t, workspaceId, `SELECT count(*)::INTEGER AS n, count(DISTINCT batch)::INTEGER AS batches FROM ${table}`)).toEqual([
        { n: 400, batches: 8 },
      ]);
    });

    test('an Idempotency-Key makes a retried push return the first result without writing twice', async () => {
      const table = newTable();
      const body = { table, records: [{ id: 1 }, { id: 2 }] };
      const key = { 'idempotency-key': `retry-${crypto.randomUUID()}` };
      const first = await push(t, workspaceId, user, body, key);
      const second = await push(t, workspaceId, user, body, key);
      expect(await bodyOf(second)).toEqual(await bodyOf(first));
      expect(await query(t, workspaceId, `SELECT count(*)::INTEGER AS n FROM ${table}`)).toEqual([{ n: 2 }]);
      const reused = await push(t, workspaceId, user, { ...body, records: [{ id: 3 }] }, key);
      expect(reused.status).toBe(409);
    });
  });
}
