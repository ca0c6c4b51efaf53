import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../../support/backends';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import { bodyOf } from '../../support/http';
import { columnsOf, push, pushOk, query } from '../../support/lake';
import { withWorkspace } from '../../support/fixtures';
import { parseTableName } from '../../../src/engine/write/table-name';

/**
 * Holds the table's write turn (as a long write would) until released: pushes sent meanwhile queue
 * behind it, and the next turn takes them together.
 */
async function holdTable(t: TestApp, workspaceId: string, table: string): Promise<() => Promise<void>> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let holding!: () => void;
  const held = new Promise<void>((resolve) => (holding = resolve));
  const done = t.services.engine.engines.with(workspaceId, (engine) =>
    engine.writeTable(table, async () => {
      holding();
      await gate;
    }),
  );
  await held;
  return async () => {
    open();
    await done;
  };
}

/** Sends the pushes while the table is held, lets them queue, then releases it and answers them all. */
async function queuedTogether<T>(t: TestApp, workspaceId: string, table: string, send: () => Promise<T>[]): Promise<T[]> {
  const release = await holdTable(t, workspaceId, table);
  const answers = send();
  // Long enough for every request to reach the table's queue.
  await Bun.sleep(1_500);
  await release();
  return Promise.all(answers);
}

async function historyOf(t: TestApp, workspaceId: string, user: TestUser, table: string): Promise<{ message: string; records_written: number }[]> {
  const response = await t.request(`/api/v1/workspaces/${workspaceId}/query/tables/${table}/history?limit=100`, { token: user.accessToken });
  expect(response.status).toBe(200);
  return bodyOf(response);
}

for (const backend of backends) {
  describe(`pushes queued on one table commit together on ${backend}`, () => {
    let t: TestApp, user: TestUser, workspaceId: string;
    beforeAll(async () => ({ t, user, workspaceId } = await withWorkspace(backend, { label: 'push-groups' })));
    afterAll(() => t.stop());

    test('many single-record pushes all land once, each answered with its own count, in fewer snapshots', async () => {
      await pushOk(t, workspaceId, user, { table: 'grp.events', records: [{ id: 0, name: 'first' }] });
      const count = 40;
      const answers = await queuedTogether(t, workspaceId, 'grp.events', () =>
        Array.from({ length: count }, (_, index) => pushOk(t, workspaceId, user, { table: 'grp.events', records: [{ id: index + 1, name: `n${index + 1}` }] })),
      );
      expect(answers).toEqual(Array.from({ length: count }, () => ({ records_written: 1, table: 'grp.events' })));
      const rows = await query(t, workspaceId, 'SELECT count(*)::INTEGER AS n, count(DISTINCT id)::INTEGER AS ids, sum(id)::INTEGER AS total FROM grp.events');
      expect(rows).toEqual([{ n: count + 1, ids: count + 1, total: (count * (count + 1)) / 2 }]);
      const history = await historyOf(t, workspaceId, user, 'grp.events');
      const grouped = history.filter((entry) => / \(\d+ pushes\)$/.test(entry.message));
      expect(grouped.length).toBeGreaterThan(0);
      expect(history.length).toBeLessThan(count + 1);
      // Every record is counted once, in the snapshot that wrote it.
      expect(history.reduce((sum, entry) => sum + entry.records_written, 0)).toBe(count + 1);
      for (const entry of grouped) expect(entry.message).toBe(`push append ${entry.records_written} rows (${entry.records_written} pushes)`);
    }, 120_000);

    test('a push that fails in a group fails alone, with the error it gets when sent alone; the others commit', async () => {
      await pushOk(t, workspaceId, user, { table: 'grp.keyed', primary_key: ['id'], records: [{ id: 1, v: 'a' }] });
      // Without `id`, the table's key refuses it, which only the write itself can tell.
      const bad = { table: 'grp.keyed', records: [{ v: 'no key' }] };
      const alone = await push(t, workspaceId, user, bad);
      expect(alone.status).toBe(422);
      const aloneBody = await bodyOf(alone);

      const answers = await queuedTogether(t, workspaceId, 'grp.keyed', () => [
        push(t, workspaceId, user, { table: 'grp.keyed', records: [{ id: 2, v: 'b' }] }),
        push(t, workspaceId, user, bad),
        push(t, workspaceId, user, {
          table: 'grp.keyed',
          records: [
            { id: 3, v: 'c' },
            { id: 1, v: 'a2' },
          ],
        }),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 422, 200]);
      expect(await bodyOf(answers[1]!)).toEqual(aloneBody);
      expect(await bodyOf(answers[2]!)).toEqual({ records_written: 2, table: 'grp.keyed' });
      expect(await query(t, workspaceId, 'SELECT id::INTEGER AS id, v FROM grp.keyed ORDER BY id')).toEqual([
        { id: 1, v: 'a2' },
        { id: 2, v: 'b' },
        { id: 3, v: 'c' },
      ]);
    }, 120_000);

    test('a retry of a grouped push with its idempotency key answers the same and writes nothing again', async () => {
      const bodies = Array.from({ length: 8 }, (_, index) => ({
        table: 'grp.keyed_retries',
        records: Array.from({ length: index + 1 }, (_, i) => ({ id: index * 100 + i })),
      }));
      const keys = bodies.map(() => crypto.randomUUID());
      const first = await queuedTogether(t, workspaceId, 'grp.keyed_retries', () =>
        bodies.map(async (body, index) => bodyOf(await push(t, workspaceId, user, body, { 'idempotency-key': keys[index]! }))),
      );
      expect(first.map((answer) => answer.records_written)).toEqual(bodies.map((body) => body.records.length));
      expect((await historyOf(t, workspaceId, user, 'grp.keyed_retries')).length).toBeLessThan(bodies.length);
      const total = bodies.reduce((sum, body) => sum + body.records.length, 0);
      expect(await query(t, workspaceId, 'SELECT count(*)::INTEGER AS n FROM grp.keyed_retries')).toEqual([{ n: total }]);

      const retried = await Promise.all(bodies.map(async (body, index) => bodyOf(await push(t, workspaceId, user, body, { 'idempotency-key': keys[index]! }))));
      expect(retried).toEqual(first);
      // As a retry after a crash finds it: each key's own count, from the group's snapshot.
      for (const [index, key] of keys.entries()) {
        expect((await t.services.engine.writer.findCommit(workspaceId, { idempotency_key: key }))?.records_written).toBe(bodies[index]!.records.length);
      }
      expect(await query(t, workspaceId, 'SELECT count(*)::INTEGER AS n FROM grp.keyed_retries')).toEqual([{ n: total }]);
    }, 120_000);

    test('upserts of one key keep their order: the last queued wins, and each counts its own distinct keys', async () => {
      const writer = t.services.engine.writer;
      const table = parseTableName('grp.upserts');
      const write = (records: Record<string, unknown>[]) =>
        writer.writeRecords(workspaceId, { table, mode: 'append', primaryKey: ['id'], source: 'push', commitInfo: {}, queued: true, records });
      await write([{ id: 0, v: -1 }]);
      const release = await holdTable(t, workspaceId, 'grp.upserts');
      // Queued in call order: nothing awaits before a write joins its table's queue.
      const answers = Array.from({ length: 30 }, (_, index) =>
        write([
          { id: index % 3, v: index },
          { id: 10, v: index },
          { id: 10, v: index + 1000 },
        ]),
      );
      await release();
      const written = await Promise.all(answers);
      expect(written.map((result) => result.rowsWritten)).toEqual(answers.map(() => 2));
      expect(await query(t, workspaceId, 'SELECT id::INTEGER AS id, v::INTEGER AS v FROM grp.upserts ORDER BY id')).toEqual([
        { id: 0, v: 27 },
        { id: 1, v: 28 },
        { id: 2, v: 29 },
        { id: 10, v: 1029 },
      ]);
      const history = await historyOf(t, workspaceId, user, 'grp.upserts');
      expect(history.length).toBeLessThan(31);
    }, 120_000);

    test('schema changes within the queue end as if each push were written alone', async () => {
      const pushes: Record<string, unknown>[][] = [
        [{ id: 1, a: 'x' }],
        [{ id: 2, note: null }],
        [{ id: 3, b: 1.5 }],
        [{ id: 4.5, a: 'y', note: 7 }],
        [{ id: 5, a: 12, at: '2026-01-02' }],
        [{ ID: 6, at: '2026-01-02T03:04:05Z', b: 2 }],
        [{ id: 7, a: { nested: true } }],
        [{ id: 8, c: true }],
        [{ id: 9, c: false, d: [1, 2] }],
      ];
      const write = (table: string, records: Record<string, unknown>[]) =>
        t.services.engine.writer.writeRecords(workspaceId, {
          table: parseTableName(table),
          mode: 'append',
          source: 'push',
          commitInfo: {},
          queued: true,
          records,
        });
      for (const records of pushes) await write('grp.alone', records);
      await write('grp.together', [{ id: 0 }]);
      const release = await holdTable(t, workspaceId, 'grp.together');
      const answers = pushes.map((records) => write('grp.together', records));
      await release();
      expect((await Promise.all(answers)).map((result) => result.rowsWritten)).toEqual(pushes.map(() => 1));
      const columns = async (table: string) => Object.entries(await columnsOf(t, workspaceId, table, user));
      expect(await columns('grp.together')).toEqual(await columns('grp.alone'));
      const rows = (table: string) => query(t, workspaceId, `SELECT * FROM grp.${table} WHERE id > 0 ORDER BY id`);
      expect(await rows('together')).toEqual(await rows('alone'));
      // Split where a push would change a type, grouped elsewhere.
      const history = await historyOf(t, workspaceId, user, 'grp.together');
      expect(history.length).toBeLessThan(pushes.length + 1);
    }, 120_000);
  });
}
