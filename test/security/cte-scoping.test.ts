import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { AstNode } from '../../src/engine/sql/parse-query';
import { planTableScans } from '../../src/engine/sql/scan-rewrite';
import { SqlParser } from '../../src/engine/sql/sql-parser';
import { statementFacts } from '../../src/engine/sql/statement-facts';

/**
 * DuckDB's binder is the authority on which CTE a name reads. Each query runs twice on a plain
 * DuckDB that holds real tables of the same names: as written, and as the sandbox rewrites it, with
 * every CTE under its own run name and every reference the sandbox takes for a table pointed at a
 * copy of that table in another schema. The two answers are equal only if the sandbox resolved
 * every reference exactly as DuckDB does: a reference it wrongly took for a CTE finds no CTE of its
 * run name, one it wrongly took for a table reads the copy instead of the CTE's rows.
 */
const names = ['a', 'b', 'c'] as const;

/** Written by hand: every scoping rule, each at least once. */
const cases = [
  "WITH a AS (SELECT * FROM b), b AS (SELECT 'CTE_b' v) SELECT * FROM a",
  "WITH a AS (SELECT 'CTE_a' v), b AS (SELECT * FROM a) SELECT * FROM b",
  "WITH a AS (SELECT v || '+' AS v FROM a) SELECT * FROM a",
  "WITH RECURSIVE a AS (SELECT v || '+' AS v FROM a) SELECT * FROM a",
  "WITH RECURSIVE a AS (SELECT * FROM b), b AS (SELECT 'CTE_b' v) SELECT * FROM a",
  "WITH a AS (SELECT 'CTE_a' v) SELECT * FROM (WITH b AS (SELECT * FROM a) SELECT * FROM b)",
  "WITH a AS (SELECT 'CTE_a' v) SELECT * FROM a UNION ALL SELECT * FROM a",
  "(WITH a AS (SELECT 'CTE_a' v) SELECT * FROM a) UNION ALL SELECT * FROM a",
  "SELECT * FROM a UNION ALL (WITH a AS (SELECT 'CTE_a' v) SELECT * FROM a)",
  "WITH a AS (WITH b AS (SELECT 'CTE_b' v) SELECT * FROM b) SELECT * FROM b",
  "WITH a AS (SELECT 'CTE_a' v) SELECT (SELECT v FROM a) || b.v AS v FROM b WHERE EXISTS (SELECT * FROM a)",
  "SELECT a.v || q.v AS v FROM a, (WITH a AS (SELECT 'CTE_a' v) SELECT v FROM a) q",
  "SELECT v || (WITH a AS (SELECT 'CTE_a' v) SELECT v FROM a) AS v FROM a",
  "WITH a AS (SELECT 'CTE_a' v) SELECT a.v || q.v AS v FROM a, LATERAL (SELECT * FROM a) q",
  "WITH a AS (SELECT 'CTE_a' v) FROM a",
  "WITH RECURSIVE r(v) AS (SELECT 'x' UNION ALL SELECT v FROM a WHERE false) SELECT * FROM r",
  "WITH RECURSIVE a AS (SELECT * FROM a UNION ALL SELECT 'x') SELECT * FROM a",
  "WITH RECURSIVE a AS (SELECT 'x' v UNION ALL SELECT * FROM (SELECT * FROM a WHERE false)) SELECT * FROM a",
  "WITH RECURSIVE a AS (SELECT 'x' v UNION SELECT * FROM a) SELECT * FROM a",
  "WITH RECURSIVE a AS (SELECT 'TABLE_a' v INTERSECT SELECT * FROM a) SELECT * FROM a",
  "WITH RECURSIVE a AS (SELECT * FROM a WHERE false UNION ALL SELECT 'y' UNION ALL SELECT 'z') SELECT * FROM a",
  "WITH RECURSIVE a AS (WITH b AS (SELECT 'CTE_b' v) SELECT * FROM b UNION ALL SELECT v FROM a WHERE false) SELECT * FROM a",
  'WITH RECURSIVE a AS (WITH b AS (SELECT * FROM a) SELECT * FROM b UNION ALL SELECT v FROM a WHERE false) SELECT * FROM a',
  "WITH RECURSIVE b AS (SELECT 'CTE_b' v), a AS (SELECT v FROM b UNION ALL SELECT v FROM b WHERE false) SELECT * FROM a",
  "WITH RECURSIVE a USING KEY (k) AS (SELECT 1 k, 'CTE_a' v UNION SELECT k + 1, v FROM a WHERE k < 3 AND EXISTS (SELECT 1 FROM recurring.a)) SELECT v || k AS v FROM a",
  "WITH RECURSIVE a USING KEY (k) AS (SELECT 1 k, 'CTE_a' v UNION SELECT k + 1, v FROM a WHERE k < 3 AND EXISTS (SELECT 1 FROM recurring.a AS r)) SELECT v || k AS v FROM a",
  "WITH a AS MATERIALIZED (SELECT 'CTE_a' v) SELECT * FROM a",
  "WITH b AS (SELECT 'CTE_b' v) SELECT * FROM (WITH a AS (SELECT * FROM b), b AS (SELECT 'CTE_b2' v) SELECT * FROM a)",
  "WITH a AS (SELECT 'CTE_a' v) SELECT * FROM (WITH a AS (SELECT v || '!' v FROM a) SELECT * FROM a)",
  "WITH a AS (SELECT 'CTE_a' v) SELECT * FROM (WITH RECURSIVE a AS (SELECT v || '!' v FROM a) SELECT * FROM a)",
  "WITH a AS (SELECT 'CTE_a' v) SELECT * FROM a INTERSECT SELECT * FROM a",
  "WITH a AS (SELECT 'CTE_a' v) VALUES ((SELECT v FROM a))",
  "WITH a AS (SELECT 'CTE_a' v), b AS (SELECT * FROM a UNION ALL SELECT * FROM b) SELECT * FROM b",
  "WITH RECURSIVE a AS (SELECT 'CTE_a' v), b AS (SELECT * FROM a UNION ALL SELECT * FROM b WHERE false) SELECT * FROM b",
  'WITH a AS (SELECT \'CTE_a\' v) SELECT * FROM "A"',
  'WITH "A" AS (SELECT \'CTE_A\' v) SELECT * FROM a',
  "WITH a AS (SELECT 'CTE_a' v) SELECT * FROM main.a",
  "WITH a AS (SELECT 'CTE_a' v) SELECT a::VARCHAR AS v FROM a",
  "WITH a AS (SELECT 'CTE_a' v) SELECT a.v FROM a",
  "WITH a AS (SELECT 'CTE_a' v) SELECT x.v FROM a AS x",
  "WITH a(w) AS (SELECT 'CTE_a') SELECT w AS v FROM a",
  "WITH a AS (SELECT 'CTE_a' v) SELECT v FROM b WHERE v IN (SELECT v FROM a) OR v IN (SELECT v FROM b)",
  "WITH a AS (SELECT 'CTE_a' v) SELECT * FROM a JOIN b USING (v) UNION ALL SELECT * FROM b",
  "SELECT * FROM (WITH a AS (SELECT 'CTE_a' v) SELECT * FROM a) q JOIN a USING (v)",
  "WITH a AS (SELECT 'CTE_a' v) DESCRIBE SELECT * FROM a",
  "DESCRIBE (WITH a AS (SELECT 'CTE_a' v) SELECT * FROM a)",
  "WITH a AS (SELECT 'CTE_a' v) SELECT * FROM a PIVOT (count(*) FOR v IN ('CTE_a', 'TABLE_a'))",
  "WITH a AS (SELECT 'CTE_a' v, 1 w) UNPIVOT a ON w INTO NAME n VALUE x",
  "WITH a AS (SELECT 'CTE_a' v) SELECT list_transform([1], lambda x: (SELECT v FROM a)) AS v",
  "WITH a AS (SELECT 'CTE_a' v) SELECT v FROM b ORDER BY (SELECT v FROM a) LIMIT (SELECT count(*) FROM a)",
  "WITH a AS (SELECT 'CTE_a' v) SELECT v, count(*) OVER (PARTITION BY (SELECT v FROM a)) FROM a GROUP BY v HAVING count(*) > (SELECT 0 FROM b)",
];

for (const [index, sql] of generatedCases(160).entries()) cases.push(sql ?? `SELECT ${index}`);

describe('CTE scoping follows DuckDB', () => {
  const parser = new SqlParser({ connections: 1 });
  let instance: DuckDBInstance;
  let connection: DuckDBConnection;
  const copies = new Map<string, AstNode>();

  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:');
    connection = await instance.connect();
    await connection.run('CREATE SCHEMA copies');
    for (const name of names) {
      await connection.run(`CREATE TABLE main.${name} AS SELECT 'TABLE_${name}' AS v, 9 AS k, 9 AS w`);
      await connection.run(`CREATE TABLE copies.${name} AS SELECT * FROM main.${name}`);
      copies.set(`main.${name}`, (await parser.parse(`SELECT * FROM (SELECT * FROM copies.${name}) AS scan`, false)).from_table as AstNode);
    }
  });
  afterAll(async () => {
    connection.closeSync();
    instance.closeSync();
    await parser.close();
  });

  const answer = async (sql: string) => {
    // A recursion that never ends is a mistake of this list, not of the sandbox: it fails the comparison.
    const timer = setTimeout(() => connection.interrupt(), 5_000);
    try {
      const rows = (await connection.runAndReadAll(sql))
        .getRows()
        .map((row) => JSON.stringify(row, (_key, value) => (typeof value === 'bigint' ? String(value) : value)));
      return rows.sort().join('\n');
    } catch (error) {
      return `error: ${String(error).split('\n')[0]}`;
    } finally {
      clearTimeout(timer);
    }
  };

  test('every CTE and table reference is resolved as DuckDB resolves it', async () => {
    const mismatches: { sql: string; written: string; rewritten: string }[] = [];
    for (const sql of cases) {
      const written = await answer(sql);
      const ast = await parser.parse(sql, false).catch(() => undefined);
      if (!ast) {
        if (!written.startsWith('error')) mismatches.push({ sql, written, rewritten: 'does not parse' });
        continue;
      }
      const facts = statementFacts(ast);
      const shapes = { tableSubquery: copies.get('main.a')! };
      const rewritten = await parser.unparse(planTableScans(ast, facts, shapes, (name) => copies.get(name)).json);
      const result = await answer(rewritten);
      const same = written.startsWith('error') ? result.startsWith('error') : written === result;
      if (!same) mismatches.push({ sql, written, rewritten: `${result}  <- ${rewritten}` });
    }
    expect(mismatches).toEqual([]);
  });
});

/** Random nestings of CTEs, recursive CTEs, subqueries and set operations over the names a, b, c (seeded: the same every run). */
function generatedCases(count: number): string[] {
  let seed = 20260101;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  let counter = 0;
  const source = (depth: number): string => {
    const roll = random();
    if (depth <= 0 || roll < 0.45) return pick(names);
    if (roll < 0.75) return `(${query(depth - 1)}) AS s${++counter}`;
    return `(SELECT v FROM ${source(depth - 1)} UNION ALL SELECT v FROM ${source(depth - 1)}) AS u${++counter}`;
  };
  const definition = (name: string, recursive: boolean, depth: number): string => {
    if (recursive && random() < 0.5) return `${name} AS (SELECT v FROM ${source(depth - 1)} UNION ALL SELECT v FROM ${source(depth - 1)} WHERE false)`;
    if (random() < 0.3) return `${name} AS (SELECT 'CTE_${name}_${++counter}' AS v)`;
    return `${name} AS (SELECT v || '_${++counter}' AS v FROM ${source(depth - 1)})`;
  };
  const query = (depth: number): string => {
    let text = `SELECT v FROM ${source(depth)}`;
    if (random() < 0.3) text += ` UNION ALL SELECT v FROM ${source(depth)}`;
    if (random() < 0.2) text += ` WHERE v IN (SELECT v FROM ${source(depth - 1)}) OR true`;
    if (depth <= 0 || random() < 0.4) return text;
    const recursive = random() < 0.4;
    const defined = [...names].filter(() => random() < 0.5);
    if (defined.length === 0) return text;
    return `WITH ${recursive ? 'RECURSIVE ' : ''}${defined.map((name) => definition(name, recursive, depth)).join(', ')} ${text}`;
  };
  return Array.from({ length: count }, () => query(3));
}
