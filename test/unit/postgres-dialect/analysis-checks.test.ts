import { describe, expect, test } from 'bun:test';
import { translatePostgres, translatePostgresStatement } from '../../../src/engine/sql/postgres-dialect';
import { numericFromText, numericToChar } from '../../../src/engine/sql/postgres-dialect/numeric-format';
import { realJson } from '../../../src/engine/sql/json-numbers';

const sql = (text: string) => translatePostgres(text).sql;
/** The SQLSTATE a statement is refused with when it is translated, or null when it translates. */
const refused = (text: string) => {
  try {
    translatePostgresStatement(text);
    return null;
  } catch (error) {
    return (error as { sqlstate?: string }).sqlstate ?? 'no sqlstate';
  }
};

describe('what Postgres refuses as it analyses a statement', () => {
  test('each fault raises its SQLSTATE, wherever it is written', () => {
    const faults: [string, string][] = [
      ['SELECT id FROM t LIMIT -1', '2201W'],
      ['SELECT id FROM (SELECT id FROM t OFFSET -2) s', '2201X'],
      ['SELECT * FROM (SELECT 1)', '42601'],
      ['SELECT * FROM t JOIN (SELECT 1 AS x) ON true', '42601'],
      ['SELECT * FROM t, (VALUES (1))', '42601'],
      ['SELECT count(DISTINCT a) OVER (PARTITION BY b) FROM t', '0A000'],
      ['SELECT nth_value(a, 0) OVER (ORDER BY b) FROM t', '22016'],
      ['SELECT sum(a) OVER (ORDER BY b ROWS BETWEEN -1 PRECEDING AND CURRENT ROW) FROM t', '22013'],
      ['SELECT sum(a) OVER (ORDER BY b ROWS BETWEEN 1 PRECEDING AND -2 FOLLOWING) FROM t', '22013'],
      ['SELECT DISTINCT ON (a) b FROM t ORDER BY b, a', '42P10'],
      ["SELECT CASE WHEN a THEN 1 ELSE 'none' END FROM t", '22P02'],
      ["SELECT j -> 'k' > 30, 1 FROM t", '42883'],
      ["SELECT 1 FROM t WHERE j ->> 'k' = 7", '42883'],
      ['SELECT \'{"a": 1}\'::json UNION SELECT j::json FROM t', '42883'],
      ["SELECT date_trunc('fortnight', d) FROM t", '22023'],
      ["SELECT split_part(s, ',', 0) FROM t", '22023'],
      ['SELECT ARRAY[1, 2][1]', '42601'],
      ["SELECT ARRAY[1] || 'x'", '22P02'],
      ["SELECT '1e-400'::float8", '22003'],
      ['SELECT 1e308::float8 * 10', '22003'],
      ['SELECT chr(0)', '54000'],
    ];
    for (const [statement, sqlstate] of faults) expect({ statement, sqlstate: refused(statement) }).toEqual({ statement, sqlstate });
  });

  test('the same words where Postgres accepts them pass', () => {
    for (const statement of [
      'SELECT id FROM t LIMIT 1 OFFSET 0',
      'SELECT * FROM (SELECT 1) AS s, (VALUES (1)) v(x)',
      'SELECT a, (SELECT 1), (b + c) FROM t',
      'SELECT DISTINCT ON (t.a) a, b AS c FROM t ORDER BY a, c DESC',
      'SELECT count(a) OVER (PARTITION BY b), nth_value(a, 2) OVER (ORDER BY b ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM t',
      "SELECT CASE WHEN a THEN 1 ELSE '2' END, CASE WHEN a THEN 'x' ELSE 'y' END FROM t",
      "SELECT (j ->> 'k')::int > 30, j ->> 'k' = '7', j -> 'k' = '7' FROM t",
      'SELECT \'{"a": 1}\'::json UNION ALL SELECT j::json FROM t',
      'SELECT \'{"a": 1}\'::jsonb UNION SELECT j FROM t',
    ])
      expect({ statement, sqlstate: refused(statement) }).toEqual({ statement, sqlstate: null });
  });

  test('a statement without the marks the checks look for pays for none of them', () => {
    expect(translatePostgres('SELECT a, b FROM t WHERE c > 1 ORDER BY a LIMIT 10')).toEqual({
      sql: 'SELECT a, b FROM t WHERE c > 1 ORDER BY a LIMIT 10',
      rewrites: [],
    });
    expect(translatePostgres('SELECT DISTINCT a, count(*) OVER (PARTITION BY b ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t').rewrites).toEqual([]);
  });
});

describe('rows, recursion and set operations', () => {
  test('rows compare pair by pair, the last pair taking the operator', () => {
    expect(sql('SELECT (a, b) < (1, 2), ROW(a, b) = ROW(c, d), (a, b) <> (c, d) FROM t')).toBe(
      'SELECT ((a) < (1) OR ((a) = (1) AND ((b) < (2)))), ((a) = (c) AND (b) = (d)), ((a) <> (c) OR (b) <> (d)) FROM t',
    );
    expect(sql('SELECT f(a, b) = (1, 2), (a + b) > 3 FROM t')).toBe('SELECT f(a, b) = (1, 2), (a + b) > 3 FROM t');
  });

  test('a recursive term that widens a column is refused once DuckDB has typed the branches', () => {
    const check = translatePostgresStatement('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 0.5 FROM r WHERE n < 3) SELECT n FROM r').setOperation!;
    expect(() => check.check([['INTEGER'], ['DECIMAL(12,1)']])).toThrow(
      'recursive query "r" column 1 has type integer in non-recursive term but type numeric overall',
    );
    expect(() => check.check([['INTEGER'], ['INTEGER']])).not.toThrow();
    const dates = translatePostgresStatement(
      "WITH RECURSIVE d(x) AS (SELECT date '2024-01-01' UNION ALL SELECT x + interval '1 day' FROM d) SELECT x FROM d",
    ).setOperation!;
    expect(() => dates.check([['DATE'], ['TIMESTAMP']])).toThrow('type date in non-recursive term but type timestamp without time zone overall');
  });

  test('an empty select list selects NULL, and time minus time is an interval', () => {
    expect(sql('SELECT 1 FROM t WHERE EXISTS (SELECT FROM u WHERE u.a = t.a)')).toBe('SELECT 1 FROM t WHERE EXISTS (SELECT NULL FROM u WHERE u.a = t.a)');
    expect(sql("SELECT time '10:00' - time '08:30'")).toBe("SELECT (DATE '2000-01-01' + time '10:00' - (DATE '2000-01-01' + time '08:30'))");
  });
});

describe('numbers as text and text as numbers', () => {
  test('S writes a sign where it stands; to_number reads the digits to the template scale', () => {
    expect(numericToChar('x', 'S999')).toContain("ELSE '+' END || format('{:.0f}'");
    expect(numericToChar('x', '99.9S')).toContain("|| CASE WHEN pgx_to_char_value(x, 1) < 0 THEN '-' ELSE '+' END, 5, ' ')");
    expect(numericFromText('s', '9G999D99')).toBe(
      "(CASE WHEN contains(s, '-') THEN -1 ELSE 1 END * CAST(nullif(regexp_replace(s, '[^0-9.]', '', 'g'), '') AS DECIMAL(38, 2)))",
    );
    expect(numericFromText('s', '999PR')).toBeNull();
  });

  test('a real shows the fewest digits that read back as the same real', () => {
    for (const [value, shown] of [
      [3.14, 3.14],
      [0.1, 0.1],
      [7 / 3, 2.3333333],
      [1e-7, 1e-7],
      [16777217, 16777216],
    ] as const) {
      expect(realJson(Math.fround(value))).toBe(shown);
    }
    expect(realJson(Number.POSITIVE_INFINITY)).toBe('Infinity');
  });
});
