// npm test: alone, every refusal must come within 5 s of wall-clock time, which other suites on the same cores would stretch.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { inputLimits } from '../../src/engine/sql/input-limits';
import { backends } from '../support/backends';
import { bodyOf } from '../support/http';
import { pushOk } from '../support/lake';
import { endpoints, send, sqlCaller, type SqlCaller } from '../support/sandbox-endpoints';
import { startTestApp, type TestApp } from '../support/test-app';

const repeat = (count: number, item: (i: number) => string, separator: string) => Array.from({ length: count }, (_, i) => item(i)).join(separator);

/**
 * Queries built to make the compiler (translation, DuckDB's parser, our walks, DuckDB's binder)
 * spend seconds or overflow a stack. Each must be refused with QUERY_TOO_COMPLEX, quickly.
 */
const tooComplex: [string, () => string][] = [
  ['a sum of 200,000 terms (800 KB)', () => `SELECT ${repeat(200_000, () => '1', ' + ')}`],
  ['an IN list of 100,000 items', () => `SELECT 1 IN (${repeat(100_000, String, ', ')})`],
  ['50,000 nested parentheses', () => `SELECT ${'('.repeat(50_000)}1${')'.repeat(50_000)}`],
  ['10,000 nested lists', () => `SELECT ${'['.repeat(10_000)}1${']'.repeat(10_000)}`],
  ['5,000 nested structs', () => `SELECT ${'{a: '.repeat(5_000)}1${'}'.repeat(5_000)}`],
  ['unclosed parentheses', () => `SELECT ${'('.repeat(20_000)}`],
  ['parentheses closed by brackets', () => `SELECT ${'(]'.repeat(20_000)}`],
  ['a concatenation of 990 strings', () => `SELECT ${repeat(990, () => "'a'", ' || ')}`],
  ['a sum of 300 columns', () => `SELECT ${repeat(300, () => 'id', ' + ')} FROM main.facts`],
  ['a chain of 990 terms holding a number past 2^53', () => `SELECT 9007199254740993 + ${repeat(989, () => '1.5', ' + ')}`],
  ['200 nested function calls', () => `SELECT ${'abs('.repeat(200)}1${')'.repeat(200)}`],
  ['200 nested CASEs', () => `SELECT ${'CASE WHEN true THEN '.repeat(200)}1${' END'.repeat(200)}`],
  ['20 nested scalar subqueries', () => `SELECT ${'(SELECT '.repeat(20)}1${')'.repeat(20)}`],
  ['20 nested IN subqueries', () => `SELECT 1 WHERE 1 IN ${'(SELECT 1 WHERE 1 IN '.repeat(20)}(1)${')'.repeat(20)}`],
  ['VALUES of 20,000 rows', () => `SELECT count(*) FROM (VALUES ${repeat(20_000, (i) => `(${i})`, ', ')}) v(a)`],
  ['a select list of 20,000 items', () => `SELECT ${repeat(20_000, String, ', ')}`],
  ['a CASE of 20,000 branches', () => `SELECT CASE id ${repeat(20_000, (i) => `WHEN ${i} THEN ${i}`, ' ')} END FROM main.facts`],
  ['60,000 tokens of AND', () => `SELECT 1 WHERE ${repeat(15_000, (i) => `${i} > 0`, ' AND ')}`],
  ['1,001 conditions joined by AND', () => `SELECT count(*) FROM main.facts WHERE ${repeat(1_001, (i) => `id <> ${i + 10}`, ' AND ')}`],
  ['conditions split over nested ANDs and ORs', () => `SELECT count(*) FROM main.facts WHERE ${repeat(400, (i) => `(id <> ${i} OR id = ${i})`, ' AND ')}`],
  ['49 tables joined', () => `SELECT count(*) FROM main.facts t0 ${repeat(48, (i) => `JOIN main.facts t${i + 1} ON t${i + 1}.id = t${i}.id`, ' ')}`],
  ['60 tables in a comma list', () => `SELECT count(*) FROM ${repeat(60, (i) => `main.facts t${i}`, ', ')}`],
  ['100 subqueries joined in a CTE', () => `WITH j AS (SELECT 1 FROM ${repeat(100, (i) => `(SELECT ${i} AS x) s${i}`, ' NATURAL JOIN ')}) SELECT * FROM j`],
  ['nested rewrites that copy their arguments', () => `SELECT ${'width_bucket('.repeat(20)}1${', 0, 10, 5)'.repeat(20)}`],
  ['a 999,000-character list of short items', () => `SELECT [${repeat(333_000, () => '1', ',')}]`],
];

for (const backend of backends) {
  describe(`every query is bounded before it can hurt, on ${backend}`, () => {
    let t: TestApp;
    let caller: SqlCaller;

    beforeAll(async () => {
      t = await startTestApp(backend, { worker: true });
      caller = await sqlCaller(t, 'limits');
      await pushOk(t, caller.workspaceId, caller.user, { table: 'main.facts', records: [{ id: 1 }, { id: 2 }] });
    });
    afterAll(() => t.stop());

    test('each too complex query is refused with QUERY_TOO_COMPLEX, fast, on every endpoint', async () => {
      const failures: unknown[] = [];
      for (const [index, [name, build]] of tooComplex.entries()) {
        const sql = build();
        // The synchronous endpoints in turn, and every query as a job once per suite on one backend.
        const tried = backend === 'local' ? [endpoints[index % 3]!, 'job' as const] : [endpoints[index % 3]!];
        for (const endpoint of tried) {
          const startedAt = performance.now();
          const answer = await send(t, endpoint, caller, sql);
          const elapsedMs = performance.now() - startedAt;
          if (answer.status !== 400 || answer.code !== 'QUERY_TOO_COMPLEX' || (endpoint !== 'job' && elapsedMs > 5_000)) {
            failures.push({ name, endpoint, status: answer.status, code: answer.code, elapsedMs: Math.round(elapsedMs), text: answer.text.slice(0, 300) });
          }
        }
      }
      expect(failures).toEqual([]);
    }, 300_000);

    test('a name of 900,000 characters is answered as fast as a short one', async () => {
      const long = `${'a.'.repeat(300_000)}${'b'.repeat(300_000)}`;
      for (const [sql, code] of [
        [`SELECT * FROM "${long}"`, 'UNDEFINED_TABLE'],
        [`SELECT "${long}" FROM main.facts`, 'UNDEFINED_COLUMN'],
        [`SELECT * FROM main."${long}"`, 'UNDEFINED_TABLE'],
      ] as const) {
        const startedAt = performance.now();
        const answer = await send(t, 'workspace query', caller, sql);
        expect([answer.status, answer.code]).toEqual([400, code]);
        expect(performance.now() - startedAt).toBeLessThan(5_000);
      }
    }, 60_000);

    test('estimate_only is held to the same limits', async () => {
      for (const [, build] of tooComplex.slice(0, 4)) {
        const startedAt = performance.now();
        const answer = await send(t, 'query', caller, build(), { estimate_only: true });
        expect([answer.status, answer.code]).toEqual([400, 'QUERY_TOO_COMPLEX']);
        expect(performance.now() - startedAt).toBeLessThan(5_000);
      }
    }, 60_000);

    test('queries at the limits still run, and compile in well under a second', async () => {
      const atLimits = [
        `SELECT count(*) AS n FROM main.facts WHERE id IN (${repeat(inputLimits.maxListItems, String, ', ')})`,
        `SELECT ${'('.repeat(inputLimits.maxDepth - 2)}1${')'.repeat(inputLimits.maxDepth - 2)} AS n`,
        `SELECT ${repeat(120, () => 'id', ' + ')} AS n FROM main.facts`,
        `SELECT ${'(SELECT '.repeat(inputLimits.maxSubqueryDepth - 1)}1${')'.repeat(inputLimits.maxSubqueryDepth - 1)} AS n`,
        `SELECT count(*) AS n FROM (VALUES ${repeat(12_000, (i) => `(${i})`, ', ')}) v(a)`,
        `SELECT count(*) AS n FROM main.facts WHERE ${repeat(inputLimits.maxConditions, (i) => `id <> ${i + 10}`, ' AND ')}`,
        `SELECT count(*) AS n FROM main.facts t0 ${repeat(inputLimits.maxJoinedTables - 1, (i) => `JOIN main.facts t${i + 1} ON t${i + 1}.id = t${i}.id`, ' ')}`,
        `SELECT length('${'x'.repeat(900_000)}') AS n`,
      ];
      for (const sql of atLimits) {
        const first = await send(t, 'query', caller, sql, { estimate_only: true });
        expect({ sql: sql.slice(0, 60), status: first.status }).toEqual({ sql: sql.slice(0, 60), status: 200 });
        const startedAt = performance.now();
        const answer = await send(t, 'workspace query', caller, sql);
        expect({ sql: sql.slice(0, 60), status: answer.status }).toEqual({ sql: sql.slice(0, 60), status: 200 });
        // Compiling and running them both, on a machine shared with other suites.
        expect(performance.now() - startedAt).toBeLessThan(5_000);
      }
    }, 120_000);

    test('estimate_only takes a slot of the per-minute rate limit', async () => {
      const free = await sqlCaller(t, 'estimates', 'free');
      await pushOk(t, free.workspaceId, free.user, { table: 'main.facts', records: [{ id: 1 }] });
      const estimate = (endpoint: 'query' | 'workspace query') =>
        t.request(endpoint === 'query' ? '/api/v1/query' : `/api/v1/workspaces/${free.workspaceId}/query`, {
          method: 'POST',
          json: { sql: 'SELECT id FROM main.facts', workspace_id: free.workspaceId, estimate_only: true },
          token: free.user.accessToken,
        });
      // The free plan: 10 a minute, estimates and runs alike.
      for (let i = 0; i < 9; i++) expect((await estimate(i % 2 ? 'query' : 'workspace query')).status).toBe(200);
      expect((await send(t, 'execute', free, 'SELECT 1')).status).toBe(200);
      const refused = await estimate('query');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBeTruthy();
      expect((await bodyOf(refused)).detail.error.code).toBe('RATE_LIMITED');
      expect((await estimate('workspace query')).status).toBe(429);
    }, 60_000);
  });
}
