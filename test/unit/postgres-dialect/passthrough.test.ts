import { describe, expect, test } from 'bun:test';
import { translatePostgres } from '../../../src/engine/sql/postgres-dialect';

/** SQL that DuckDB already reads the way Postgres does: it must come back byte for byte. */
const native = [
  'SELECT 1',
  'SELECT a, b FROM t WHERE a > 1 AND b IS NOT NULL ORDER BY a, b ASC NULLS LAST LIMIT 10 OFFSET 5',
  'SELECT x FROM t ORDER BY x DESC NULLS LAST, y DESC NULLS FIRST',
  "SELECT list_transform([1, 2], lambda x: x + 1), list_transform([1, 2], x -> x + 1), [1, 2, 3][2], {'a': 1}",
  'SELECT * EXCLUDE (a) FROM t QUALIFY row_number() OVER (PARTITION BY b ORDER BY c) = 1',
  "FROM t SELECT a WHERE b LIKE 'x%' AND c ILIKE '%Y' AND d NOT LIKE 'z_'",
  'SELECT a // 2, a * 2.5, a / 2.0, CAST(a AS DOUBLE) / 3, 7 % 3 FROM t',
  "SELECT j ->> 'k', j ->> '$.a.b', (j -> 'k'), json_extract(j, '$.a') FROM t",
  "SELECT * FROM lake.s.t AS o AT (TIMESTAMP => TIMESTAMP '2024-01-01 00:00:00')",
  "SELECT strftime(ts, '%Y-%m'), last_day(ts), ts + INTERVAL '1 day', now(), current_date FROM t",
  'SELECT count(*) FILTER (WHERE a > 1), count(b) OVER w FROM t GROUP BY ROLLUP (c, d) WINDOW w AS (ORDER BY e ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)',
  'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r',
  'SELECT DISTINCT ON (a) a, b FROM t ORDER BY a, b',
  'SELECT * FROM t, LATERAL (SELECT t.a * 2 AS d) x FETCH FIRST 3 ROWS ONLY',
  'SELECT $1, ?, a = ? FROM t WHERE b IN (?, ?)',
  "SELECT 'it''s', $$ x DESC $$, E'a\\'b', \"desc\" FROM t -- ORDER BY x DESC",
  'SELECT unnest([1, 2]) AS s, list_sum(generate_series(1, 3)) FROM range(3) r(i)',
  'SELECT * FROM unnest([1, 2]) AS u(v), generate_series(a, 2) AS g(n)',
  "SELECT regexp_matches(a, 'x'), regexp_replace(a, 'x', 'y', 'g'), split_part(a, ',', 1), string_agg(a, ',' ORDER BY a) FROM t",
  "SELECT tags @> ARRAY['a'], tags && ARRAY['b'], 'a' || 'b', x::JSON, CAST(y AS DECIMAL(10, 2)) FROM t",
  "SELECT json_object('a', 1), json_array(1, 2), to_json(x), json_group_array(x) FROM t",
  'SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY a), mode() WITHIN GROUP (ORDER BY b) FROM t',
  'DESCRIBE t',
  'DESC t',
];

describe('SQL DuckDB already understands', () => {
  for (const sql of native) {
    test(sql, () => {
      expect(translatePostgres(sql)).toEqual({ sql, rewrites: [] });
    });
  }
});

describe('translating twice', () => {
  const postgres = [
    "SELECT to_char(ts, 'YYYY-MM-DD') FROM t ORDER BY a DESC",
    "SELECT j #>> '{a,0}', j -> 'b' IS NULL, j ? 'k', j @> '{\"a\": 1}' FROM t",
    "SELECT a ~* 'x', b SIMILAR TO '(a|b)%', c LIKE 'a\\_b', 7 / 2, x::numeric / 3 FROM t",
    'SELECT jsonb_agg(x ORDER BY y DESC) FILTER (WHERE z), generate_series(1, 3) FROM t, jsonb_array_elements(t.j) AS e',
    "SELECT extract(second FROM ts), date_part('milliseconds', ts), div(a, b), width_bucket(a, 0, 10, 5), to_hex(a), initcap(s) FROM t",
    "SELECT * FROM t FOR SYSTEM_TIME AS OF '2024-01-01' AS o ORDER BY a FETCH FIRST 2 ROWS WITH TIES",
  ];
  for (const sql of postgres) {
    test(`changes nothing more: ${sql}`, () => {
      const once = translatePostgres(sql);
      expect(once.rewrites.length).toBeGreaterThan(0);
      expect(translatePostgres(once.sql)).toEqual({ sql: once.sql, rewrites: [] });
    });
  }
});

describe('never rejecting', () => {
  const samples = [
    "SELECT to_char(o.ts, 'YYYY-\"Q\"Q'), j #>> '{a,0}', (j -> 'k') IS NULL FROM t FOR SYSTEM_TIME AS OF '2024-01-01' AS o ORDER BY 1 DESC",
    "SELECT substring(s FROM '(a)'), overlay(s PLACING 'x' FROM 2), jsonb_agg(x ORDER BY y) FILTER (WHERE z) FROM t, jsonb_array_elements(t.j) AS e",
    "SELECT a ~* 'x', b SIMILAR TO 'y%', (c, d) OVERLAPS (e, f), g BETWEEN SYMMETRIC 1 AND 2 FROM t ORDER BY a FETCH FIRST 2 ROWS WITH TIES",
  ];

  test('every prefix and suffix of a query translates without throwing and keeps unknown text', () => {
    for (const sql of samples) {
      for (let i = 0; i <= sql.length; i += 1) {
        for (const part of [sql.slice(0, i), sql.slice(i)]) expect(typeof translatePostgres(part).sql).toBe('string');
      }
    }
  });

  test('garbled input comes back unchanged when nothing in it is recognised', () => {
    for (const sql of ["'unterminated", '/* open comment', '$$ open dollar', '((( [[', 'SELECT ?? @@ ## ~~~', '"open ident']) {
      expect(translatePostgres(sql)).toEqual({ sql, rewrites: [] });
    }
  });
});
