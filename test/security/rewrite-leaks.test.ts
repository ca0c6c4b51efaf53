import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../support/backends';
import { pushOk } from '../support/lake';
import { endpoints, leaksOf, send, sqlCaller, type SqlCaller } from '../support/sandbox-endpoints';
import { startTestApp, type TestApp } from '../support/test-app';

/** DuckLake's virtual columns, and read_parquet's: each names a file, a snapshot or a row of the server's storage. */
const virtualColumns = ['filename', 'file_row_number', 'file_index', 'snapshot_id', 'rowid', 'row_id'];

/** Every statement form a virtual column could be named in; `t` is a table of the workspace. */
function virtualColumnAttempts(column: string, t: string): [string, string][] {
  return [
    ['SUMMARIZE of a query', `SUMMARIZE SELECT ${column} FROM ${t}`],
    ['DESCRIBE of a query', `DESCRIBE SELECT ${column} FROM ${t}`],
    ['a plain select', `SELECT ${column} FROM ${t}`],
    ['qualified by an alias', `SELECT x.${column} FROM ${t} AS x`],
    ['quoted, in other case', `SELECT "${column.toUpperCase()}" FROM ${t}`],
    ['in a scalar subquery', `SELECT (SELECT max(${column}) FROM ${t}) AS m`],
    ['in a CTE', `WITH c AS (SELECT ${column} FROM ${t}) SELECT * FROM c`],
    ['in WHERE', `SELECT count(*) FROM ${t} WHERE ${column} IS NOT NULL`],
    ['under time travel', `SUMMARIZE SELECT ${column} FROM ${t} AT (VERSION => 3)`],
    ['under FOR SYSTEM_TIME', `SELECT ${column} FROM ${t} FOR SYSTEM_TIME AS OF now()`],
    ['in a PIVOT', `SELECT * FROM ${t} PIVOT (max(${column}) FOR id IN (1))`],
    ['in SUMMARIZE of a join', `SUMMARIZE SELECT a.${column} FROM ${t} a JOIN ${t} b ON a.id = b.id`],
  ];
}

/** Functions that tell the server's paths, counters, version or settings, spelt every way. */
const revealingCalls = [
  'SELECT current_query()',
  'SELECT CURRENT_QUERY() AS q',
  'SELECT "current_query"()',
  'SELECT pg_catalog.current_query()',
  'SELECT system.main.current_query()',
  "SELECT 1 AS one WHERE current_query() LIKE '%'",
  'WITH q AS (SELECT current_query() AS q) SELECT * FROM q',
  'SELECT list_transform([1], lambda x: current_query()) AS q',
  'SELECT (SELECT current_query()) AS q',
  'SELECT value FROM files WHERE value <> current_query()',
  'SELECT version()',
  'SELECT current_query_id(), current_connection_id()',
  'SELECT txid_current()',
  "SELECT in_search_path('memory', 'main')",
  "SELECT get_block_size('lake')",
  'SELECT format_type(23, -1)',
  "SELECT nextval('s')",
  'SELECT setseed(0.5)',
  'SELECT sleep_ms(1)',
  "SELECT current_setting('allowed_directories')",
  'SELECT current_schemas(true)',
  'SELECT inet_server_addr()',
  "SELECT json_serialize_plan('SELECT 1')",
  'DESCRIBE SELECT current_query()',
  'SUMMARIZE SELECT current_query() AS q',
];

for (const backend of backends) {
  describe(`rewritten queries leak nothing on ${backend}`, () => {
    let t: TestApp;
    let caller: SqlCaller;

    beforeAll(async () => {
      t = await startTestApp(backend, { worker: true });
      caller = await sqlCaller(t, 'rewrites');
      // One file: read straight from it. Two files: read through DuckLake.
      await pushOk(t, caller.workspaceId, caller.user, { table: 's.one', records: [{ id: 1, value: 'a' }] });
      await pushOk(t, caller.workspaceId, caller.user, { table: 'main.files', records: [{ id: 1, value: 'a' }] });
      await pushOk(t, caller.workspaceId, caller.user, { table: 'main.files', records: [{ id: 2, value: 'b' }] });
    });
    afterAll(() => t.stop());

    test('virtual columns are unknown columns in every statement form, on both kinds of scan', async () => {
      const failures: unknown[] = [];
      let index = 0;
      for (const table of ['s.one', 'files']) {
        for (const column of virtualColumns) {
          for (const [form, sql] of virtualColumnAttempts(column, table)) {
            const endpoint = endpoints[index++ % 3]!;
            const answer = await send(t, endpoint, caller, sql);
            const refused = answer.status === 400 && ['UNDEFINED_COLUMN', 'UNDEFINED_TABLE', 'QUERY_ERROR', 'SNAPSHOT_NOT_FOUND'].includes(answer.code ?? '');
            if (!refused || leaksOf(t, answer).length > 0)
              failures.push({ table, column, form, endpoint, status: answer.status, code: answer.code, text: answer.text.slice(0, 300) });
          }
        }
      }
      expect(failures).toEqual([]);
    }, 240_000);

    test('DESCRIBE and SUMMARIZE still show a table’s own columns', async () => {
      for (const table of ['s.one', 'files']) {
        for (const sql of [
          `DESCRIBE ${table}`,
          `SUMMARIZE ${table}`,
          `SUMMARIZE SELECT * FROM ${table}`,
          `DESCRIBE SELECT id, value FROM ${table} AT (VERSION => 2)`,
        ]) {
          const answer = await send(t, 'query', caller, sql, { format: 'objects' });
          expect({ sql, status: answer.status }).toEqual({ sql, status: 200 });
          expect(JSON.parse(answer.text).data.map((row: { column_name: string }) => row.column_name)).toEqual(['id', 'value']);
          expect(leaksOf(t, answer)).toEqual([]);
        }
      }
    }, 60_000);

    test('functions that reveal the server are refused wherever they are called', async () => {
      const failures: unknown[] = [];
      for (const [index, sql] of revealingCalls.entries()) {
        const endpoint = endpoints[index % endpoints.length]!;
        const answer = await send(t, endpoint, caller, sql);
        if (answer.status !== 400 || answer.code !== 'STATEMENT_NOT_ALLOWED' || leaksOf(t, answer).length > 0)
          failures.push({ sql, endpoint, status: answer.status, code: answer.code, text: answer.text.slice(0, 300) });
      }
      expect(failures).toEqual([]);
    }, 120_000);

    test('no error message or hint quotes a server path', async () => {
      const failures: unknown[] = [];
      const mistakes = [
        'SELECT sum(value) FROM s.one',
        'SELECT nope FROM s.one',
        'SELECT value::INTEGER FROM s.one',
        "SELECT * FROM s.one WHERE id = 'x'",
        'SELECT value::INTEGER FROM files',
        'SELECT sum(value) FROM files JOIN s.one USING (id)',
        'SELECT * FROM s.one AT (VERSION => 999999)',
        "SELECT * FROM files AT (TIMESTAMP => TIMESTAMP '2000-01-01')",
        "SELECT error('stop') FROM s.one",
        "SELECT json_extract(value, '$.a') FROM files",
        "SELECT id FROM s.one WHERE value::DATE > DATE '2020-01-01'",
      ];
      // A job wraps the statement in COPY and a direct scan rewrites it: every endpoint, every mistake.
      for (const sql of mistakes) {
        for (const endpoint of endpoints) {
          const answer = await send(t, endpoint, caller, sql);
          if (answer.status < 400 || answer.status >= 500 || leaksOf(t, answer).length > 0)
            failures.push({ sql, endpoint, status: answer.status, text: answer.text.slice(0, 600), leaks: leaksOf(t, answer) });
        }
      }
      expect(failures).toEqual([]);
    }, 180_000);
  });
}
