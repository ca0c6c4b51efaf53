import { describe, expect, test } from 'bun:test';
import { translatePostgres } from '../../../src/engine/sql/postgres-dialect';

const sql = (text: string) => translatePostgres(text).sql;

describe('column names that are keywords only in DuckDB', () => {
  test('are quoted wherever an expression starts, in the lower case Postgres folds them to', () => {
    expect(sql("SELECT id, at, to_char(at, 'YYYY') FROM t WHERE at > now() ORDER BY At")).toBe(
      `SELECT id, "at", strftime("at", '%Y') FROM t WHERE "at" > now() ORDER BY "at"`,
    );
    expect(sql('SELECT by, lower(qualify), count(DISTINCT semi) FROM t GROUP BY by HAVING count(anti) > 1')).toBe(
      'SELECT "by", lower("qualify"), count(DISTINCT "semi") FROM t GROUP BY "by" HAVING count("anti") > 1',
    );
    expect(sql('SELECT CASE WHEN show THEN describe ELSE pivot END, glob = 1 OR NOT positional FROM t')).toBe(
      'SELECT CASE WHEN "show" THEN "describe" ELSE "pivot" END, "glob" = 1 OR NOT "positional" FROM t',
    );
    expect(translatePostgres('SELECT at FROM t').rewrites).toEqual(['column names DuckDB reserves (at, by, qualify…): quoted']);
  });

  test('keep their meaning where DuckDB uses them as keywords', () => {
    const unchanged = [
      "SELECT ts AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC', ts AT LOCAL FROM t",
      "SELECT * FROM lake.s.t AS o AT (TIMESTAMP => TIMESTAMP '2024-01-01 00:00:00')",
      'SELECT a FROM t GROUP BY a ORDER BY a',
      'SELECT a FROM t WINDOW w AS (PARTITION BY a) QUALIFY row_number() OVER w = 1',
      "SELECT * FROM t WHERE name GLOB 'a*' AND name NOT GLOB 'b*'",
      'SELECT * FROM a ASOF JOIN b USING (k), c POSITIONAL JOIN d, e SEMI JOIN f ON e.x = f.x, g ANTI JOIN h ON g.x = h.x',
      'SELECT unpack(s) FROM t',
      'SELECT * FROM (DESCRIBE t)',
      'DESCRIBE SELECT 1',
      'SUMMARIZE t',
      'SHOW TABLES',
      'PIVOT t ON c USING count(v)',
      'SELECT 1 AS at, t.at, t.by FROM t',
      'SELECT list_transform([1, 2], lambda x: x + 1)',
    ];
    for (const text of unchanged) expect(translatePostgres(text)).toEqual({ sql: text, rewrites: [] });
  });

  test('time travel keeps its AT clause and quotes a column named at', () => {
    expect(sql("SELECT at FROM s.t FOR SYSTEM_TIME AS OF '2024-01-01'")).toBe(`SELECT "at" FROM s.t AT (TIMESTAMP => TIMESTAMPTZ '2024-01-01')`);
  });
});
