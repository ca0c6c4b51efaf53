import { describe, expect, test } from 'bun:test';
import { translatePostgres } from '../../../src/engine/sql/postgres-dialect';

const sql = (text: string) => translatePostgres(text).sql;

describe('sorting', () => {
  test('descending keys without a NULLS clause put NULLs first, everywhere ORDER BY appears', () => {
    expect(sql('SELECT a FROM t ORDER BY a DESC, b, c DESC NULLS LAST')).toBe('SELECT a FROM t ORDER BY a DESC NULLS FIRST, b, c DESC NULLS LAST');
    expect(sql('SELECT rank() OVER (ORDER BY a DESC), array_agg(b ORDER BY b desc) FROM t')).toBe(
      'SELECT rank() OVER (ORDER BY a DESC NULLS FIRST), array_agg(b ORDER BY b desc NULLS FIRST) FROM t',
    );
  });

  test('ORDER BY … USING < and >', () => {
    expect(sql('SELECT a FROM t ORDER BY a USING >, b USING <')).toBe('SELECT a FROM t ORDER BY a DESC NULLS FIRST, b ASC');
  });

  test('FETCH … WITH TIES becomes a QUALIFY on the rank; positional keys are left alone', () => {
    expect(sql('SELECT a FROM t ORDER BY a FETCH FIRST 3 ROWS WITH TIES')).toBe('SELECT a FROM t QUALIFY rank() OVER (ORDER BY a) <= 3 ORDER BY a ');
    expect(sql('SELECT a FROM t ORDER BY a FETCH NEXT ROW WITH TIES')).toBe('SELECT a FROM t QUALIFY rank() OVER (ORDER BY a) <= 1 ORDER BY a ');
    expect(translatePostgres('SELECT a FROM t ORDER BY 1 FETCH FIRST 3 ROWS WITH TIES').rewrites).toEqual([]);
  });

  test('TABLESAMPLE takes a percentage', () => {
    expect(sql('SELECT * FROM t TABLESAMPLE BERNOULLI (10) REPEATABLE (7)')).toBe('SELECT * FROM t TABLESAMPLE BERNOULLI (10 PERCENT) REPEATABLE (7)');
  });
});

describe('arithmetic and types', () => {
  test('division of integers becomes //, unless an operand is visibly an interval or a fraction; a divisor that may be zero is checked', () => {
    expect(sql('SELECT 7 / 2, sum(a) / count(*), (a + b) / c, a / b::int, a % b FROM t')).toBe(
      'SELECT 7 // 2, pgx_sum(a) // pgx_divisor(count(*)), (a + b) // pgx_divisor(c), a // pgx_divisor(pgx_int4(b)), pgx_modulo_of(a) % pgx_divisor(b) FROM t',
    );
    expect(sql('SELECT a / 0, a / 0.0, a % 1e0, a / 1e-3 FROM t')).toBe(
      'SELECT a // pgx_divisor(0), a / pgx_divisor(0.0), pgx_modulo_of(a) % 1e0, a / 1e-3 FROM t',
    );
    expect(sql("SELECT interval '1 day' / 2, a / 2.0, a::float8 / 2, CAST(a AS numeric) / 3, a / 1e3 FROM t")).toBe(
      "SELECT interval '1 day' / 2, a / 2.0, a::float8 / 2, pgx_numeric_div(CAST(a AS DECIMAL(38,10)), 3), a / 1e3 FROM t",
    );
  });

  test('numerics divide exactly: a numeric beside a numeric or an integer, through chains of products and quotients', () => {
    expect(sql('SELECT (1 / 3.0) * 3, 1 / 3.0 / b * 3 / 7, 2 * 3 / 4.5, a::numeric(10, 2) / 4, count(*) / 2.0 FROM t')).toBe(
      'SELECT (pgx_numeric_div(1, 3.0)) * 3, pgx_numeric_div(1, 3.0) / pgx_divisor(b) * 3 / 7, pgx_numeric_div(2 * 3, 4.5), pgx_numeric_div(a::numeric(10, 2), 4), pgx_numeric_div(count(*), 2.0) FROM t',
    );
    // A double, a column of unknown type beside a literal, an exponent (a double in DuckDB), a product not led by exact operands: DuckDB's division.
    expect(sql('SELECT x::float8 / 2.0, a / 2.0, 1 / 3e0, a * 2 / 3.0, 1.5 / 0 FROM t')).toBe(
      'SELECT x::float8 / 2.0, a / 2.0, 1 / 3e0, a * 2 / 3.0, pgx_numeric_div(1.5, pgx_divisor(0)) FROM t',
    );
  });

  test('type names: jsonb, bare numeric, float', () => {
    expect(sql("SELECT a::jsonb, jsonb '{}', CAST(b AS numeric), c::numeric(10, 2), d::decimal, e::float, f::float(10), g::float(53) FROM t")).toBe(
      "SELECT a::JSON, JSON '{}', CAST(b AS DECIMAL(38,10)), c::numeric(10, 2), d::DECIMAL(38,10), e::DOUBLE, f::REAL, g::DOUBLE FROM t",
    );
  });

  test('Postgres array text cast to an array becomes a list literal', () => {
    expect(sql(`SELECT '{1,2,3}'::int[], '{"a b",NULL,c}'::text[], '{{1,2},{3,4}}'::int[][], '{}'::text[]`)).toBe(
      "SELECT ['1', '2', '3']::int[], ['a b', NULL, 'c']::text[], [['1', '2'], ['3', '4']]::int[][], []::text[]",
    );
    expect(translatePostgres("SELECT '{1,2}'::text").rewrites).toEqual([]);
  });
});

describe('JSON operators', () => {
  test('#> and #>> with a literal path become arrows with a JSONPath', () => {
    expect(sql(`SELECT j #> '{a,b}', j #>> '{items,0,sku}', j #> '{"odd key",-1}' FROM t`)).toBe(
      `SELECT j -> '$.a.b', j ->> '$.items[0].sku', j -> '$."odd key"[#-1]' FROM t`,
    );
  });

  test('-> chains are parenthesised unless already delimited', () => {
    expect(sql("SELECT j -> 'a' -> 0, j -> 'a' IS NULL, j -> 'a' = '1'::jsonb FROM t")).toBe(
      "SELECT pgx_jsonb_element((j -> 'a'), 0), (j -> 'a') IS NULL, pgx_jsonb_eq((j -> 'a'), '1'::JSON) FROM t",
    );
    expect(sql("SELECT x FROM t WHERE j -> 'a' ->> 'b' = 'c' AND f(j -> 'a')")).toBe("SELECT x FROM t WHERE (j -> 'a' ->> 'b') = 'c' AND f(j -> 'a')");
  });

  test('containment and key tests', () => {
    expect(sql(`SELECT j @> '{"a": 1}', '{"a": 1}' <@ j, x::jsonb @> y, tags @> ARRAY['x'] FROM t`)).toBe(
      `SELECT json_contains(j, '{"a": 1}'), json_contains(j, '{"a": 1}'), json_contains(x::JSON, y), tags @> ARRAY['x'] FROM t`,
    );
    expect(sql("SELECT j ? 'k', j -> 'a' ?| array['x', 'y'], j ?& '{x,y}' FROM t WHERE a = ?")).toBe(
      "SELECT pgx_jsonb_exists(j, 'k'), pgx_jsonb_exists_any((j -> 'a'), array['x', 'y']), pgx_jsonb_exists_all(j, ['x', 'y']) FROM t WHERE a = ?",
    );
  });
});

describe('pattern matching', () => {
  test('regex operators search anywhere, case-insensitively for *, negated for !', () => {
    expect(sql("SELECT a ~ 'x', a || b ~* 'y', a !~ 'z', a !~* 'w' FROM t WHERE c ~ '^d' AND ~e > 0")).toBe(
      "SELECT regexp_matches(a, 'x'), regexp_matches(a || b, 'y', 'i'), (NOT regexp_matches(a, 'z')), (NOT regexp_matches(a, 'w', 'i')) FROM t WHERE regexp_matches(c, '^d') AND ~e > 0",
    );
  });

  test('SIMILAR TO patterns become full regular expression matches', () => {
    expect(sql("SELECT a SIMILAR TO '(ab|c)%', a NOT SIMILAR TO 'x_.y\\%' FROM t")).toBe(
      "SELECT regexp_full_match(a, '(ab|c).*'), (NOT regexp_full_match(a, 'x.\\.y%')) FROM t",
    );
  });

  test("LIKE patterns with a backslash get Postgres' default escape", () => {
    expect(sql("SELECT a LIKE 'a\\_b', a ILIKE 'c\\%', a LIKE 'plain%', a LIKE 'x\\_' ESCAPE '#' FROM t")).toBe(
      "SELECT a LIKE 'a\\_b' ESCAPE '\\', a ILIKE 'c\\%' ESCAPE '\\', a LIKE 'plain%', a LIKE 'x\\_' ESCAPE '#' FROM t",
    );
  });
});

describe('predicates', () => {
  test('BETWEEN SYMMETRIC orders its bounds; ASYMMETRIC is dropped', () => {
    expect(sql('SELECT a BETWEEN SYMMETRIC b + 1 AND c * 2 AND d, a NOT BETWEEN ASYMMETRIC 1 AND 2 FROM t')).toBe(
      'SELECT a BETWEEN least(b + 1, c * 2) AND greatest(b + 1, c * 2) AND d, a NOT BETWEEN 1 AND 2 FROM t',
    );
  });

  test('OVERLAPS compares the ordered ends of both periods', () => {
    expect(sql("SELECT (a, b) OVERLAPS (c, interval '1 day') FROM t")).toBe(
      "SELECT (CASE WHEN least(a, b) > c THEN least(a, b) < (c) + (interval '1 day') WHEN least(a, b) < c THEN c < greatest(a, b) ELSE least(a, b) = c END) FROM t",
    );
  });
});
