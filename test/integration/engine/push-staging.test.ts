import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../../support/backends';
import { startTestApp, type TestApp } from '../../support/test-app';
import { createVerifiedUser, type TestUser } from '../../support/accounts';
import { createWorkspace } from '../../support/workspaces';
import { columnsOf, pushOk, query } from '../../support/lake';

// Records whose fields each hold one kind of value are staged as typed columns through DuckDB's
// appender; the others (a JSON field among them) through a JSON file. Both must store the same rows.
const texts = ['', 'a', 'exactly12chr', 'thirteen char', 'x'.repeat(40), 'é', 'café au lait', '日本語のテキストです。長い', '😀', 'a😀b'.repeat(5), 'quote " and \\ backslash', 'tab\tnew\nline'];

function recordAt(i: number): Record<string, unknown> {
  const record: Record<string, unknown> = {
    id: i,
    big: i % 2 === 0 ? Number.MAX_SAFE_INTEGER - i : -Number.MAX_SAFE_INTEGER + i,
    ratio: i % 5 === 0 ? null : i / 7,
    flag: i % 3 === 0 ? null : i % 2 === 0,
    label: i % 11 === 0 ? null : texts[i % texts.length],
    day: `2026-0${(i % 9) + 1}-1${i % 10}`,
    at: i % 4 === 0 ? `2026-11-21T10:00:${String(i % 60).padStart(2, '0')}.123456Z` : '2026-11-21 10:00:00+05:30',
  };
  // Some records lack fields altogether: they read as NULL.
  if (i % 13 === 0) delete record.label;
  if (i % 17 === 0) delete record.ratio;
  return record;
}

for (const backend of backends) {
  describe(`push staging on ${backend}`, () => {
    let t: TestApp;
    let user: TestUser;
    let workspaceId: string;
    let counter = 0;
    const newTable = () => `staging.t${Date.now().toString(36)}_${++counter}`;

    beforeAll(async () => {
      t = await startTestApp(backend);
      user = await createVerifiedUser(t, 'stager');
      workspaceId = (await createWorkspace(t, user)).id;
    });
    afterAll(() => t.stop());

    test('typed columns and the JSON file store the same rows, across chunks and flushes', async () => {
      // More than 16 chunks of 2,048 rows: the appender flushes in between.
      const records = Array.from({ length: 40_000 }, (_, i) => recordAt(i));
      const typed = newTable();
      const viaJson = newTable();
      await pushOk(t, workspaceId, user, { table: typed, records });
      // A JSON field sends the whole write through the JSON file.
      await pushOk(t, workspaceId, user, { table: viaJson, records: records.map((record, i) => (i === 0 ? { ...record, extra: { a: 1 } } : record)) });
      const types = { id: 'BIGINT', big: 'BIGINT', ratio: 'DOUBLE', flag: 'BOOLEAN', label: 'VARCHAR', day: 'DATE', at: 'TIMESTAMP WITH TIME ZONE' };
      expect(await columnsOf(t, workspaceId, typed, user)).toEqual(types);
      expect(await columnsOf(t, workspaceId, viaJson, user)).toEqual({ ...types, extra: 'JSON' });

      const columns = 'id, big, ratio, flag, label, day, "at"';
      const difference = await query(
        t,
        workspaceId,
        `SELECT count(*)::INTEGER AS n FROM ((SELECT ${columns} FROM ${typed} EXCEPT ALL SELECT ${columns} FROM ${viaJson}) UNION ALL (SELECT ${columns} FROM ${viaJson} EXCEPT ALL SELECT ${columns} FROM ${typed}))`,
      );
      expect(difference).toEqual([{ n: 0 }]);
      expect(await query(t, workspaceId, `SELECT count(*)::INTEGER AS n, count(label)::INTEGER AS labels FROM ${typed}`)).toEqual([
        { n: 40_000, labels: records.filter((record) => record.label !== undefined && record.label !== null).length },
      ]);
    });

    test('texts of every length and script arrive unchanged', async () => {
      const table = newTable();
      await pushOk(t, workspaceId, user, { table, records: texts.map((text, id) => ({ id, text })) });
      const rows = await query(t, workspaceId, `SELECT id, text FROM ${table} ORDER BY id`);
      expect(rows).toEqual(texts.map((text, id) => ({ id, text })));
    });

    test('values keep their type: safe integers exactly, fractions, booleans, dates and timestamps', async () => {
      const table = newTable();
      const records = [
        { id: 1, n: Number.MAX_SAFE_INTEGER, x: 0.1, b: true, d: '2024-02-29', ts: '2026-11-21T23:59:59.999999Z' },
        { id: 2, n: -Number.MAX_SAFE_INTEGER, x: -1e300, b: false, d: '0100-01-01', ts: '2026-11-21T10:00:00-03:00' },
        { id: 3, n: 0, x: 5e-324, b: null, d: null, ts: null },
      ];
      await pushOk(t, workspaceId, user, { table, records });
      const rows = await query(t, workspaceId, `SELECT id, n::VARCHAR AS n, x, b, d::VARCHAR AS d, ts FROM ${table} ORDER BY id`);
      expect(rows).toEqual([
        { id: 1, n: '9007199254740991', x: 0.1, b: true, d: '2024-02-29', ts: '2026-11-21T23:59:59.999999Z' },
        { id: 2, n: '-9007199254740991', x: -1e300, b: false, d: '0100-01-01', ts: '2026-11-21T13:00:00.000Z' },
        { id: 3, n: '0', x: 5e-324, b: null, d: null, ts: null },
      ]);
      expect(await query(t, workspaceId, `SELECT epoch_us(ts)::VARCHAR AS us FROM ${table} WHERE id = 1`)).toEqual([{ us: String(Date.UTC(2026, 10, 21, 23, 59, 59) * 1000 + 999_999) }]);
    });

    test('a key compares as the column type: two spellings of one instant are one key, the last wins', async () => {
      const table = newTable();
      await pushOk(t, workspaceId, user, {
        table,
        primary_key: ['at'],
        records: [
          { at: '2026-11-21T10:00:00Z', v: 'first' },
          { at: '2026-11-21 12:00:00+02:00', v: 'second' },
          { at: '2026-11-21T11:00:00Z', v: 'other' },
        ],
      });
      expect(await query(t, workspaceId, `SELECT "at", v FROM ${table} ORDER BY "at"`)).toEqual([
        { at: '2026-11-21T10:00:00.000Z', v: 'second' },
        { at: '2026-11-21T11:00:00.000Z', v: 'other' },
      ]);
    });

    test('a field named like a property of every object reads as NULL where a record lacks it', async () => {
      const table = newTable();
      await pushOk(t, workspaceId, user, { table, records: [{ id: 1, constructor: 'built' }, { id: 2 }] });
      expect(await query(t, workspaceId, `SELECT id, "constructor" AS c FROM ${table} ORDER BY id`)).toEqual([
        { id: 1, c: 'built' },
        { id: 2, c: null },
      ]);
    });
  });
}
