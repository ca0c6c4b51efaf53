import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../support/backends';
import { pushOk } from '../support/lake';
import { endpoints, leaksOf, send, sqlCaller, type SqlCaller } from '../support/sandbox-endpoints';
import { startTestApp, type TestApp } from '../support/test-app';

/** DuckDB's own catalog entries a bare name reaches when nothing else binds it. */
const systemNames = ['pg_settings', 'duckdb_settings', 'duckdb_databases', 'duckdb_tables', 'duckdb_secrets', 'sqlite_master', 'duckdb_temporary_files'];

/**
 * A CTE hides a name only inside its scope. Each attempt names a system view outside the scope of a
 * CTE of the same name (or where DuckDB binds the view itself, as in a CTE's own definition), and
 * must be refused as an unknown table wherever it stands and however it is spelt.
 */
function outOfScope(name: string): [string, string][] {
  const cte = `${name} AS (SELECT 1 AS x)`;
  return [
    ['beside a subquery that defines it', `SELECT * FROM ${name}, (WITH ${cte} SELECT x FROM ${name}) q`],
    ['in a join after a nested WITH', `SELECT * FROM (WITH ${cte} SELECT * FROM ${name}) q JOIN ${name} ON true`],
    ['in LATERAL order', `SELECT * FROM ${name}, LATERAL (WITH ${cte} SELECT * FROM ${name}) q`],
    ['beside a scalar subquery that defines it', `SELECT (WITH ${cte} SELECT count(*) FROM ${name}) AS c, * FROM ${name}`],
    ['in EXISTS, the CTE in an IN list', `SELECT 1 AS one WHERE EXISTS (SELECT * FROM ${name}) AND 1 IN (WITH ${cte} SELECT x FROM ${name})`],
    [
      'in the other branch of a union',
      `(WITH ${cte} SELECT to_json(${name})::VARCHAR AS j FROM ${name}) UNION ALL SELECT to_json(${name})::VARCHAR FROM ${name}`,
    ],
    ['in the first branch, the CTE in the second', `SELECT to_json(${name})::VARCHAR AS j FROM ${name} UNION ALL (WITH ${cte} SELECT 'x' FROM ${name})`],
    ['from a CTE defined before it', `WITH a AS (SELECT * FROM ${name}), ${cte} SELECT * FROM a`],
    ['in its own definition', `WITH ${name} AS (SELECT * FROM ${name}) SELECT * FROM ${name}`],
    ['in its own definition under WITH RECURSIVE', `WITH RECURSIVE ${name} AS (SELECT * FROM ${name}) SELECT * FROM ${name}`],
    [
      'in the anchor of a recursive CTE',
      `WITH RECURSIVE ${name} AS (SELECT to_json(${name})::VARCHAR AS j FROM ${name} UNION ALL SELECT j FROM ${name} WHERE false) SELECT * FROM ${name}`,
    ],
    [
      'in a recursive CTE that is no union',
      `WITH RECURSIVE ${name} AS (SELECT 'x' AS j INTERSECT SELECT to_json(${name})::VARCHAR FROM ${name}) SELECT * FROM ${name}`,
    ],
    ['outside the CTE whose body defines it', `WITH a AS (WITH ${cte} SELECT * FROM ${name}) SELECT * FROM a, ${name}`],
    ['upper-case and quoted', `SELECT * FROM "${name.toUpperCase()}", (WITH ${cte} SELECT x FROM ${name}) q`],
    ['mixed case, CTE quoted', `SELECT * FROM ${name[0]!.toUpperCase()}${name.slice(1)}, (WITH "${name}" AS (SELECT 1 AS x) SELECT x FROM "${name}") q`],
    ['behind comments', `SELECT * FROM/**/${name}/**/,(WITH/* c */${cte} SELECT x FROM ${name}) q -- tail`],
    ['under DESCRIBE', `DESCRIBE SELECT * FROM ${name}, (WITH ${cte} SELECT x FROM ${name}) q`],
    ['under SUMMARIZE', `SUMMARIZE SELECT * FROM ${name}, (WITH ${cte} SELECT x FROM ${name}) q`],
    ['as SUMMARIZE of the name', `SUMMARIZE ${name}`],
    ['as the source of UNPIVOT', `WITH a AS (SELECT 1 AS x) UNPIVOT ${name} ON COLUMNS(*) INTO NAME k VALUE v`],
    ['in a PIVOT source', `WITH a AS (SELECT 1) SELECT * FROM ${name} PIVOT (count(*) FOR x IN (1))`],
    ['in a time-travel clause', `SELECT * FROM mine AT (VERSION => (SELECT count(*) FROM ${name}))`],
    ['in FOR SYSTEM_TIME', `SELECT * FROM mine FOR SYSTEM_TIME AS OF (SELECT now() FROM ${name} LIMIT 1)`],
    ['qualified, with a CTE of that name', `WITH ${cte} SELECT * FROM main.${name}`],
    ['in the system catalog, with a CTE of that name', `WITH ${cte} SELECT * FROM system.main.${name}`],
  ];
}

for (const backend of backends) {
  describe(`table references follow SQL scope on ${backend}`, () => {
    let t: TestApp;
    let caller: SqlCaller;

    beforeAll(async () => {
      t = await startTestApp(backend, { worker: true });
      caller = await sqlCaller(t, 'scoped');
      await pushOk(t, caller.workspaceId, caller.user, { table: 'main.mine', records: [{ id: 1, value: 'bob data' }] });
    });
    afterAll(() => t.stop());

    test('a name outside its CTE’s scope is a table: a system view is refused, never read', async () => {
      const failures: unknown[] = [];
      let index = 0;
      for (const name of systemNames) {
        for (const [where, sql] of outOfScope(name)) {
          // Each attempt on another endpoint in turn; jobs are slow, so every seventh only.
          const endpoint = index % 7 === 6 ? 'job' : endpoints[index % 3]!;
          index += 1;
          const answer = await send(t, endpoint, caller, sql);
          const leaks = leaksOf(t, answer);
          if (answer.status !== 400 || answer.code !== 'UNDEFINED_TABLE' || leaks.length > 0)
            failures.push({ name, where, endpoint, status: answer.status, code: answer.code, leaks, text: answer.text.slice(0, 300) });
        }
      }
      expect(failures).toEqual([]);
    }, 240_000);

    test('the first example, on every endpoint, with and without estimate_only', async () => {
      const sql = 'SELECT name, setting FROM pg_settings, (WITH pg_settings AS (SELECT 1 AS x) SELECT x FROM pg_settings) q';
      for (const endpoint of endpoints) {
        const answer = await send(t, endpoint, caller, sql);
        expect({ endpoint, status: answer.status, code: answer.code, leaks: leaksOf(t, answer) }).toEqual({
          endpoint,
          status: 400,
          code: 'UNDEFINED_TABLE',
          leaks: [],
        });
      }
      const estimate = await send(t, 'query', caller, sql, { estimate_only: true });
      expect([estimate.status, estimate.code]).toEqual([400, 'UNDEFINED_TABLE']);
    }, 60_000);

    test('inside its scope a CTE hides any name, system views and lake tables alike', async () => {
      const rows = async (sql: string) => {
        const answer = await send(t, 'workspace query', caller, sql, { format: 'objects' });
        expect({ sql, status: answer.status, text: answer.status === 200 ? '' : answer.text }).toEqual({ sql, status: 200, text: '' });
        return JSON.parse(answer.text).data;
      };
      expect(await rows('WITH pg_settings AS (SELECT 1 AS x) SELECT x FROM pg_settings')).toEqual([{ x: 1 }]);
      expect(await rows('WITH "DuckDB_Settings" AS (SELECT 2 AS x) SELECT x FROM duckdb_settings')).toEqual([{ x: 2 }]);
      expect(await rows('WITH mine AS (SELECT 42 AS id) SELECT id FROM mine')).toEqual([{ id: 42 }]);
      expect(await rows('SELECT q.id AS inner_id, mine.value FROM (WITH mine AS (SELECT 42 AS id) SELECT id FROM mine) q, mine')).toEqual([
        { inner_id: 42, value: 'bob data' },
      ]);
      expect(await rows('WITH a AS (SELECT id FROM mine), b AS (SELECT id + 1 AS id FROM a) SELECT b.id FROM b')).toEqual([{ id: 2 }]);
      expect(await rows('WITH mine AS (SELECT id + 10 AS id FROM mine) SELECT id FROM mine')).toEqual([{ id: 11 }]);
      expect(await rows('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT count(*)::INTEGER AS n FROM r')).toEqual([
        { n: 3 },
      ]);
      expect(
        await rows(
          'WITH RECURSIVE r USING KEY (k) AS (SELECT 1 AS k UNION SELECT k + 1 FROM r WHERE k < 3 AND EXISTS (SELECT 1 FROM recurring.r)) SELECT max(k) AS k FROM r',
        ),
      ).toEqual([{ k: 3 }]);
      expect(await rows('WITH t AS (SELECT 1 AS x) SELECT t.x, (SELECT count(*)::INTEGER FROM t) AS n FROM t')).toEqual([{ x: 1, n: 1 }]);
      expect(
        (await rows('DESCRIBE (WITH pg_settings AS (SELECT 1 AS x) SELECT x FROM pg_settings)')).map((row: { column_name: string }) => row.column_name),
      ).toEqual(['x']);
      expect(await rows('WITH m AS (SELECT * FROM mine FOR SYSTEM_TIME AS OF now()) SELECT value FROM m')).toEqual([{ value: 'bob data' }]);
    }, 60_000);
  });
}
