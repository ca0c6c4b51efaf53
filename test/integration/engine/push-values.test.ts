import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../../support/backends';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import { pushOk, query } from '../../support/lake';
import { withWorkspace } from '../../support/fixtures';

// What a push stores for each kind of value, read back through SQL.
const texts = [
  '',
  'a',
  'exactly12chr',
  'thirteen char',
  'x'.repeat(40),
  'é',
  'café au lait',
  '日本語のテキストです。長い',
  '😀',
  'a😀b'.repeat(5),
  'quote " and \\ backslash',
  'tab\tnew\nline',
];

for (const backend of backends) {
  describe(`push values on ${backend}`, () => {
    let t: TestApp, user: TestUser, workspaceId: string;
    let counter = 0;
    const newTable = () => `vals.t${Date.now().toString(36)}_${++counter}`;

    beforeAll(async () => ({ t, user, workspaceId } = await withWorkspace(backend, { label: 'valuer' })));
    afterAll(() => t.stop());

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
      expect(await query(t, workspaceId, `SELECT epoch_us(ts)::VARCHAR AS us FROM ${table} WHERE id = 1`)).toEqual([
        { us: String(Date.UTC(2026, 10, 21, 23, 59, 59) * 1000 + 999_999) },
      ]);
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
