import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../../support/backends';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import { withWorkspace } from '../../support/fixtures';
import { columnsOf, pushOk, query } from '../../support/lake';

// A push's records reach DuckDB's reader as the client spelled them when that stores the same values
// (see recordsSource). Whatever the spelling, a table must hold exactly what the same records hold
// when sent as JSON.stringify writes them.
const spellings: { name: string; records: string }[] = [
  {
    name: 'numbers spelled every way',
    records:
      '[{"i":1.0,"j":1e2,"k":-0,"x":0.1000000000000000055511151231257827,"y":123456789012345678901234567890,"z":9007199254740993,"w":1E-2}, {"i":2,"j":3,"k":4,"x":-2.5,"y":1,"z":2,"w":0.5}]',
  },
  { name: 'negative zero among fractions', records: '[{"x":-0.0,"y":-0e0},{"x":1.5,"y":2.5}]' },
  {
    name: 'escaped texts, dates and timestamps',
    records: '[{"s":"\\u00e9\\/\\n\\ud83d\\ude00\\"\\\\","d":"2024-02-29","t":"2026-11-21T10:00:00\\u002B02:00"}]',
  },
  { name: 'numbers and booleans in a column of text', records: '[{"v":"a"},{"v":1.50},{"v":true},{"v":12345678901234567890},{"v":null}]' },
  { name: 'nested values kept as JSON', records: '[{"j":{"x":1.0,"y":[1e2,"\\u0041"]}},{"j":[true,null]}]' },
  { name: 'a nested object naming a field twice', records: '[{"j":{"x":1,"x":2},"v":"a"}]' },
  { name: 'a record naming a field twice', records: '[{"a":1,"a":2,"b":"x"},{"a":3,"b":"y","b":"z"}]' },
  { name: 'pretty-printed', records: '[\n  {\n    "a" : 1 ,\r\n\t"b" : "x"\n  }\n]' },
];

for (const backend of backends) {
  describe(`a push's records read as sent on ${backend}`, () => {
    let t: TestApp;
    let user: TestUser;
    let workspaceId: string;
    let counter = 0;
    const newTable = () => `sent.t${Date.now().toString(36)}_${++counter}`;

    beforeAll(async () => ({ t, user, workspaceId } = await withWorkspace(backend, { label: 'sender' })));
    afterAll(() => t.stop());

    const pushText = async (body: string) => {
      const response = await t.request(`/api/v1/workspaces/${workspaceId}/push`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
        token: user.accessToken,
      });
      expect(response.status).toBe(200);
      return (await response.json()) as { records_written: number; table: string };
    };
    // Every value as DuckDB spells it: -0.0 is not 0, nor `{"x":1.0}` the same JSON text as `{"x":1}`.
    const contents = async (table: string) => ({
      columns: await columnsOf(t, workspaceId, table, user),
      rows: await query(t, workspaceId, `SELECT COLUMNS(*)::VARCHAR FROM ${table} ORDER BY ALL`),
    });

    for (const { name, records } of spellings) {
      test(`${name}: the same table as the records written out again`, async () => {
        const [sent, rewritten] = [newTable(), newTable()];
        const parsed = JSON.parse(records) as unknown[];
        expect(await pushText(`{"table":"${sent}","records":${records}}`)).toEqual({ records_written: parsed.length, table: sent });
        await pushOk(t, workspaceId, user, { table: rewritten, records: parsed });
        expect(await contents(sent)).toEqual(await contents(rewritten));
      });
    }

    test('into an existing table, a text column taking numbers and a fraction column taking integers', async () => {
      const [sent, rewritten] = [newTable(), newTable()];
      for (const table of [sent, rewritten]) await pushOk(t, workspaceId, user, { table, records: [{ v: 'text', x: 0.5, n: 1 }] });
      const records = '[{"v":2.50,"x":3,"n":4.0},{"v":"1e2","x":1e2,"n":1E1}]';
      await pushText(`{"records":${records},"table":"${sent}","mode":"append"}`);
      await pushOk(t, workspaceId, user, { table: rewritten, records: JSON.parse(records), mode: 'append' });
      expect(await contents(sent)).toEqual(await contents(rewritten));
    });

    // A body of a megabyte or more has its records read on two threads while the write starts (see
    // splitLargePush): its table must hold what the same body read whole holds. A body naming its
    // records with an escape (`rec\u006frds`) is read whole, as JSON.parse reads it.
    const largeBody = (table: string, records: string, member = 'records') => {
      const inner = records.trim().slice(1, -1);
      const filler = Array.from({ length: 20_000 }, (_, i) => `{"pad":"${'p'.repeat(40)}","n":${i}}`);
      const parts = [filler.slice(0, 10_000).join(','), inner, filler.slice(10_000).join(','), inner].filter((part) => part.trim().length > 0);
      const body = `{"table":"${table}","${member}":[${parts.join(',')}],"mode":"append"}`;
      expect(body.length).toBeGreaterThan(1024 * 1024);
      return body;
    };

    for (const { name, records } of spellings) {
      test(`a large body, ${name}: the same table as the body read whole`, async () => {
        const [sent, whole] = [newTable(), newTable()];
        const written = await pushText(largeBody(sent, records));
        expect(await pushText(largeBody(whole, records, 'rec\\u006frds'))).toEqual({ ...written, table: whole });
        expect(await contents(sent)).toEqual(await contents(whole));
      });
    }

    test('a large body into a table with a key of its own: upserted on it, as the body read whole is', async () => {
      const [sent, whole] = [newTable(), newTable()];
      for (const table of [sent, whole]) await pushOk(t, workspaceId, user, { table, records: [{ n: 1, pad: 'old' }], primary_key: ['n'] });
      await pushText(largeBody(sent, '[{"n":1,"pad":"new"}]'));
      await pushText(largeBody(whole, '[{"n":1,"pad":"new"}]', 'rec\\u006frds'));
      expect(await contents(sent)).toEqual(await contents(whole));
      expect(await query(t, workspaceId, `SELECT count(*)::INT AS rows, count(DISTINCT n)::INT AS keys FROM ${sent}`)).toEqual([
        { rows: 20_000, keys: 20_000 },
      ]);
    });

    test('a body naming records twice writes the last, as JSON.parse reads it', async () => {
      const table = newTable();
      await pushText(`{"table":"${table}","records":[{"a":1},{"a":2}],"records":[{"a":3}]}`);
      expect(await query(t, workspaceId, `SELECT a FROM ${table}`)).toEqual([{ a: 3 }]);
    });
  });
}
