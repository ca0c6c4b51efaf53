import { describe, expect, test } from 'bun:test';
import { translatePostgres } from '../../../src/engine/sql/postgres-dialect';

const sql = (text: string) => translatePostgres(text).sql;

describe('casts that read text by Postgres input rules', () => {
  test('a cast to an integer, boolean, date, time or interval type becomes its macro, in both spellings and along a chain', () => {
    expect(sql('SELECT a::int, CAST(b AS bigint), c::smallint::text, d::boolean, e::date, f::timestamptz, g::timestamp, h::time, i::interval FROM t')).toBe(
      'SELECT pgx_int4(a), pgx_int8(b), pgx_int2(c)::text, pgx_bool(d), pgx_date(e), pgx_timestamptz(f), pgx_timestamp(g), pgx_time(h), pgx_interval(i) FROM t',
    );
    expect(sql("SELECT (j ->> 'n')::int, t.x::varchar(3)::int, CAST(x AS timestamp with time zone) FROM t")).toBe(
      "SELECT pgx_int4((j ->> 'n')), pgx_int4(pgx_varchar(t.x, 3)), pgx_timestamptz(x) FROM t",
    );
  });

  test('varchar(n) and char(n) cut the text; a bare char is char(1); unsized varchar and text stay', () => {
    expect(sql('SELECT a::varchar(3), CAST(b AS character varying(2)), c::char(4), d::char, e::varchar, f::text FROM t')).toBe(
      'SELECT pgx_varchar(a, 3), pgx_varchar(b, 2), pgx_bpchar(c, 4), pgx_bpchar(d, 1), e::varchar, f::text FROM t',
    );
  });

  test('inside CASE, function arguments and subqueries alike', () => {
    expect(sql('SELECT CASE WHEN a::int > 1 THEN b::date END, f(c::bool), (SELECT d::int FROM u) FROM t')).toBe(
      'SELECT CASE WHEN pgx_int4(a) > 1 THEN pgx_date(b) END, f(pgx_bool(c)), (SELECT pgx_int4(d) FROM u) FROM t',
    );
  });

  test('literals DuckDB reads as Postgres does stay as written; other text goes through the macro', () => {
    const unchanged = [
      "SELECT date '2024-01-15', '2024-01-15'::date, timestamptz '2024-01-15 12:00:00+02', timestamp '2024-01-15 12:00', interval '1 day', interval '90' day, 42::int, 1::boolean, '7'::int",
    ];
    for (const text of unchanged) expect(translatePostgres(text).rewrites).toEqual([]);
    expect(sql("SELECT date 'Jan 15 2024', '20240115'::date, timestamptz '2024-01-15 12:00+00', interval 'P1D', 'PT1H'::interval")).toBe(
      "SELECT pgx_date('Jan 15 2024'), pgx_date('20240115'), pgx_timestamptz('2024-01-15 12:00+00'), pgx_interval('P1D'), pgx_interval('PT1H')",
    );
  });

  test('array types, numeric, floats, json and TRY_CAST are left to DuckDB', () => {
    const unchanged = ['SELECT a::int[], CAST(b AS numeric(10, 2)), c::float8, d::json, TRY_CAST(e AS int), f::timestamp(3) FROM t'];
    for (const text of unchanged) expect(translatePostgres(text).rewrites).toEqual([]);
  });

  test('text literals Postgres refuses are refused with its SQLSTATE, also in CAST(… AS …)', () => {
    for (const [text, sqlstate] of [
      ["SELECT '4.2'::int", '22P02'],
      ["SELECT CAST('4.2' AS bigint)", '22P02'],
      ["SELECT '2147483648'::int", '22003'],
      ["SELECT 'maybe'::boolean", '22P02'],
    ] as const) {
      expect(() => translatePostgres(text)).toThrow(expect.objectContaining({ sqlstate }));
    }
  });
});

describe('operands inside CASE', () => {
  test('operators in a CASE’s conditions and results are translated like any other', () => {
    expect(sql("SELECT CASE WHEN a / b > 1 THEN j -> 'k' IS NULL ELSE x ~ 'y' END FROM t")).toBe(
      "SELECT CASE WHEN a // pgx_divisor(b) > 1 THEN (j -> 'k') IS NULL ELSE regexp_matches(x, 'y') END FROM t",
    );
  });
});
