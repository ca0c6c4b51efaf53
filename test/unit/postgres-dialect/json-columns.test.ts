import { describe, expect, test } from 'bun:test';
import { translatePostgresStatement } from '../../../src/engine/sql/postgres-dialect';

const json = new Set(['profile', 'payload']);
const typed = (sql: string) => translatePostgresStatement(sql, { jsonColumns: json }).sql;
const untyped = (sql: string) => translatePostgresStatement(sql).sql;

describe("a lake table's JSON columns are jsonb", () => {
  test('qualified, unqualified and aliased references, where jsonb reads differently', () => {
    expect(typed('SELECT profile::text FROM shop.customers')).toBe('SELECT pgx_jsonb_out(profile::JSON) AS "profile" FROM shop.customers');
    expect(typed('SELECT CAST(c.profile AS text), shop.customers.profile::varchar FROM shop.customers c')).toBe(
      'SELECT pgx_jsonb_out(c.profile::JSON) AS "profile", pgx_jsonb_out(shop.customers.profile::JSON) AS "profile" FROM shop.customers c',
    );
    expect(typed("SELECT c.profile ->> 'address', c.profile #>> '{address,city}' FROM shop.customers AS c")).toBe(
      'SELECT pgx_jsonb_text((c.profile::JSON -> \'address\')) AS "?column?", pgx_jsonb_text((c.profile::JSON -> \'$.address.city\')) AS "?column?" FROM shop.customers AS c',
    );
    expect(typed('SELECT c.profile || e.payload FROM shop.customers c JOIN shop.events e ON e.customer_id = c.id')).toBe(
      'SELECT pgx_jsonb_concat(c.profile::JSON, e.payload::JSON) AS "?column?" FROM shop.customers c JOIN shop.events e ON e.customer_id = c.id',
    );
    expect(typed("SELECT id FROM shop.customers WHERE profile = '{}' AND payload @> profile AND profile ? 'a'")).toBe(
      "SELECT id FROM shop.customers WHERE pgx_jsonb_eq(profile::JSON, '{}') AND json_contains(payload::JSON, profile::JSON) AND pgx_jsonb_exists(profile::JSON, 'a')",
    );
    expect(typed("SELECT (profile - 'age')::text, profile #- '{a,b}' FROM t")).toBe(
      "SELECT pgx_jsonb_out((pgx_jsonb_delete_key(profile::JSON, 'age'))) AS \"text\", pgx_jsonb_descend(profile::JSON, 'a', pgx_jsonb_remove(pgx_jsonb_step(profile::JSON, 'a'), 'b')) AS \"?column?\" FROM t",
    );
  });

  test('a member compared with a text literal or tested for NULL keeps DuckDB ->>, which answers alike', () => {
    expect(typed("SELECT id FROM t WHERE payload ->> 'device' = 'mobile' AND payload ->> 'x' IS NULL AND 'a' <> payload ->> 'k'")).toBe(
      "SELECT id FROM t WHERE payload::JSON ->> 'device' = 'mobile' AND payload::JSON ->> 'x' IS NULL AND 'a' <> payload::JSON ->> 'k'",
    );
  });

  test('elsewhere, and for other names, the statement is as it was', () => {
    for (const sql of [
      'SELECT profile, jsonb_pretty(payload) FROM t ORDER BY profile',
      'SELECT name::text, name || note, a = b FROM t',
      "SELECT profile::jsonb ->> 'a' = 'x' FROM t",
    ]) {
      expect(typed(sql)).toBe(untyped(sql));
    }
  });

  test('a name another part of the statement may give another type stays as written', () => {
    for (const sql of [
      // A CTE or derived table that re-types the name, seen from outside it.
      "WITH p AS (SELECT id, profile::text AS profile FROM shop.customers) SELECT profile || 'x' FROM p",
      'SELECT s.profile::text FROM (SELECT name AS profile FROM shop.customers) s',
      'SELECT profile::text FROM (SELECT note profile FROM shop.customers) s',
      // Column lists, FROM aliases, a function's columns.
      'WITH p(profile) AS (SELECT profile FROM shop.customers) SELECT profile::text FROM p',
      'SELECT s.profile::text FROM (SELECT profile FROM shop.customers) AS s(profile)',
      'SELECT payload::text FROM shop.events, unnest(ARRAY[1]) AS payload',
      "SELECT payload::text FROM jsonb_each_text('{}') AS e(key, payload)",
    ]) {
      const outer = typed(sql);
      expect({ sql, marked: /pgx_jsonb_out\((?:s\.)?(?:profile|payload)::JSON\)(?! AS profile)/.test(outer.split(' FROM ')[0]!) }).toEqual({
        sql,
        marked: false,
      });
    }
    // Its own level's ORDER BY sees the output name.
    expect(typed("SELECT profile::text AS profile FROM shop.customers ORDER BY profile || 'x'")).toBe(
      "SELECT pgx_jsonb_out(profile::JSON) AS profile FROM shop.customers ORDER BY profile || 'x'",
    );
  });

  test('a CTE or derived table that passes the column on unchanged keeps it jsonb', () => {
    expect(typed('WITH p AS (SELECT id, profile FROM shop.customers) SELECT p.profile::text FROM p')).toBe(
      'WITH p AS (SELECT id, profile FROM shop.customers) SELECT pgx_jsonb_out(p.profile::JSON) AS "profile" FROM p',
    );
    expect(typed('SELECT s.payload::text FROM (SELECT e.payload AS payload FROM shop.events e) s')).toBe(
      'SELECT pgx_jsonb_out(s.payload::JSON) AS "payload" FROM (SELECT e.payload AS payload FROM shop.events e) s',
    );
  });

  test('the translation names the references a JSON column would change', () => {
    expect(translatePostgresStatement('SELECT a.profile::text, x = y, b.note FROM t a, u b WHERE a.id = b.id').jsonbReferences).toEqual([
      'profile',
      'x',
      'y',
      'id',
    ]);
    expect(translatePostgresStatement('SELECT profile FROM t').jsonbReferences).toBeUndefined();
    expect(translatePostgresStatement('WITH p(profile) AS (SELECT 1) SELECT profile::text FROM p').jsonbReferences).toBeUndefined();
  });
});

describe('visibly jsonb', () => {
  test('a bracketed jsonb expression, a jsonb function, an arrow of a jsonb: their text is jsonb text', () => {
    expect(untyped('SELECT (\'{"b": 1}\'::jsonb || \'{"a": 2}\'::jsonb)::text')).toBe(
      'SELECT pgx_jsonb_out((pgx_jsonb_concat(\'{"b": 1}\'::JSON, \'{"a": 2}\'::JSON))) AS "text"',
    );
    expect(untyped("SELECT jsonb_build_object('b', 1, 'a', 2)::text, (j::jsonb -> 'a')::text, CAST(jsonb_set(j::jsonb, '{a}', '1') AS text) FROM t")).toBe(
      "SELECT pgx_jsonb_out(json_object('b', 1, 'a', 2)) AS \"jsonb_build_object\", pgx_jsonb_out((j::JSON -> 'a')) AS \"text\", pgx_jsonb_out(pgx_jsonb_put(j::JSON, 'a', CAST('1' AS JSON), true)) AS \"jsonb_set\" FROM t",
    );
    expect(untyped("SELECT j::jsonb ->> 'a', '{\"a\": {\"b\": 1}}'::jsonb #>> '{a}'")).toBe(
      'SELECT pgx_jsonb_text((j::JSON -> \'a\')) AS "?column?", pgx_jsonb_text((\'{"a": {"b": 1}}\'::JSON -> \'$.a\')) AS "?column?"',
    );
  });

  test("json (not jsonb), text and a column's arrow keep DuckDB's text", () => {
    for (const sql of ['SELECT \'{"b": 1}\'::json::text', "SELECT (j -> 'a')::text, j ->> 'a' FROM t", "SELECT jsonb_pretty(j::jsonb) || 'x' FROM t"]) {
      expect(untyped(sql)).not.toContain('pgx_jsonb_out');
      expect(untyped(sql)).not.toContain('pgx_jsonb_text');
      expect(untyped(sql)).not.toContain('pgx_jsonb_concat');
    }
  });
});
