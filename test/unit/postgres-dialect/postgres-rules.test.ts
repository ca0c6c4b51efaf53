import { describe, expect, test } from 'bun:test';
import { translatePostgres, translatePostgresStatement } from '../../../src/engine/sql/postgres-dialect';
import { macrosFor } from '../../../src/engine/sql/postgres-dialect/macros';

const sql = (text: string) => translatePostgres(text).sql;
const refused = (text: string) => {
  try {
    translatePostgres(text);
    return null;
  } catch (error) {
    return (error as { sqlstate?: string }).sqlstate;
  }
};

describe('jsonb editing and comparison', () => {
  test('|| merges when an operand is visibly jsonb, and folds a chain; text concatenation stays', () => {
    expect(sql(`SELECT a::jsonb || b, j -> 'x' || k || l, s || t FROM t`)).toBe(
      "SELECT pgx_jsonb_concat(a::JSON, b), pgx_jsonb_concat(pgx_jsonb_concat((j -> 'x'), k), l), s || t FROM t",
    );
  });

  test('- removes keys, positions and keys of a list; #- and jsonb_set walk a literal path', () => {
    expect(sql(`SELECT j::jsonb - 'a' - 1, payload - 'ok', a - 1, j::jsonb - ARRAY['a'] FROM t`)).toBe(
      "SELECT pgx_jsonb_delete_index(pgx_jsonb_delete_key(j::JSON, 'a'), 1), pgx_minus(payload, 'ok'), a - 1, pgx_jsonb_delete_keys(j::JSON, ARRAY['a']) FROM t",
    );
    expect(sql(`SELECT j #- '{a,0}' FROM t`)).toBe("SELECT pgx_jsonb_descend(j, 'a', pgx_jsonb_remove(pgx_jsonb_step(j, 'a'), '0')) FROM t");
    expect(sql(`SELECT jsonb_set(j, '{a}', '1', false) FROM t`)).toBe("SELECT pgx_jsonb_put(j, 'a', CAST('1' AS JSON), false) FROM t");
  });

  test('= and <> compare by value when an operand is visibly jsonb; ->> compares as text', () => {
    expect(sql(`SELECT a::jsonb = b, j -> 'a' <> '1'::jsonb, j ->> 'a' = 'b' FROM t`)).toBe(
      "SELECT pgx_jsonb_eq(a::JSON, b), NOT pgx_jsonb_eq((j -> 'a'), '1'::JSON), j ->> 'a' = 'b' FROM t",
    );
  });
});

describe("jsonb's key order in its output", () => {
  test('::text and CAST(… AS text) of a visible jsonb, jsonb_pretty, jsonb_object_keys and jsonb_each follow it; json keeps its text', () => {
    expect(sql(`SELECT j::jsonb::text, CAST(j::jsonb AS text), j::json::text, jsonb_pretty(j) FROM t`)).toBe(
      'SELECT pgx_jsonb_out(j::JSON), pgx_jsonb_out(j::JSON), j::json::text, pgx_jsonb_pretty(j) FROM t',
    );
    expect(sql(`SELECT jsonb_object_keys(j), json_object_keys(j) FROM t`)).toBe(
      "SELECT unnest(pgx_jsonb_key_order(json_keys(pgx_json_object(j, 'jsonb_object_keys')))), unnest(json_keys(pgx_json_object(j, 'json_object_keys'))) FROM t",
    );
    expect(sql(`SELECT * FROM jsonb_each_text(j)`)).toBe(
      'SELECT * FROM (SELECT key, pgx_jsonb_text(value) AS value FROM json_each(j) ORDER BY strlen(key), key) AS jsonb_each_text',
    );
  });

  test('every object of the value is ordered, to four levels of nesting, one macro a level', () => {
    const macros = macrosFor('SELECT pgx_jsonb_out(j)', new Set(), 'main').names;
    expect(macros).toEqual(
      expect.arrayContaining(['pgx_jsonb_sorted_0', 'pgx_jsonb_sorted_1', 'pgx_jsonb_sorted_2', 'pgx_jsonb_sorted_3', 'pgx_jsonb_sorted']),
    );
  });
});

describe('format()', () => {
  test('widths, identifiers, literals, positions and stars', () => {
    expect(sql(`SELECT format('%5s|%-5s|%I|%L|%2$s|%*s%%', a, b, c, d, 3, e)`)).toBe(
      "SELECT (pgx_pad(pgx_text(a), 5) || '|' || pgx_pad(pgx_text(b), -5) || '|' || pgx_identifier(pgx_text(c)) || '|' || quote_nullable(pgx_text(d)) || '|' || coalesce(pgx_text(b), '') || '|' || pgx_pad(pgx_text(d), c) || '%')",
    );
  });

  test('too few arguments and unknown directives are Postgres errors; a template that is not a literal is left alone', () => {
    expect(refused("SELECT format('%s %s', 1)")).toBe('22023');
    expect(refused("SELECT format('%x', 1)")).toBe('22023');
    expect(translatePostgres('SELECT format(t, 1) FROM t').rewrites).toEqual([]);
  });
});

describe('arrays', () => {
  test('|| with an element appends or prepends (two lists DuckDB joins itself); LIKE ANY and ALL test each pattern', () => {
    expect(sql('SELECT ARRAY[1] || 2, 0 || ARRAY[1], ARRAY[1] || ARRAY[2], ARRAY[1] || 2 || ARRAY[3] FROM t')).toBe(
      'SELECT list_append(ARRAY[1], 2), list_prepend(0, ARRAY[1]), ARRAY[1] || ARRAY[2], list_concat(list_append(ARRAY[1], 2), ARRAY[3]) FROM t',
    );
    expect(sql("SELECT s LIKE ANY (ARRAY['a%']), s NOT ILIKE ALL (p) FROM t")).toBe(
      "SELECT (CASE WHEN len((ARRAY['a%'])) = 0 THEN false ELSE list_bool_or(list_transform((ARRAY['a%']), lambda __pattern: s LIKE __pattern)) END), (CASE WHEN len((p)) = 0 THEN true ELSE list_bool_and(list_transform((p), lambda __pattern: s NOT ILIKE __pattern)) END) FROM t",
    );
  });

  test('a slice followed by a subscript is refused', () => {
    expect(refused('SELECT a[1:2][1] FROM t')).toBe('0A000');
    expect(refused('SELECT a[1][2], a[1:2] FROM t')).toBeNull();
  });
});

describe('aggregates, WHERE and rows', () => {
  test('avg by its macro, with DISTINCT and FILTER; over a window it stays', () => {
    expect(sql('SELECT avg(a), avg(DISTINCT a), avg(a) FILTER (WHERE b > 1), avg(a) OVER () FROM t')).toBe(
      'SELECT pgx_avg(a), pgx_avg_distinct(a), pgx_avg(CASE WHEN b > 1 THEN a END), avg(a) OVER () FROM t',
    );
    expect(refused("SELECT sum('a')")).toBe('42725');
  });

  test('a WHERE condition that is one operand must be a boolean; comparisons are left alone', () => {
    expect(sql('SELECT 1 FROM t WHERE flag')).toBe('SELECT 1 FROM t WHERE pgx_where(flag)');
    expect(translatePostgres('SELECT 1 FROM t WHERE a = 1 AND b').rewrites).toEqual([]);
  });

  test("row values in the statement's own SELECT list become record text", () => {
    expect(sql("SELECT ROW(1, 'a'), (x, y), (a) FROM t")).toBe(
      "SELECT ('(' || pgx_record_field(1) || ',' || pgx_record_field('a') || ')'), ('(' || pgx_record_field(x) || ',' || pgx_record_field(y) || ')'), (a) FROM t",
    );
    expect(translatePostgres('SELECT * FROM t WHERE (a, b) = (SELECT 1, 2)').rewrites).toEqual([]);
  });
});

describe('FROM lists with a function before an outer join', () => {
  test('become a derived table that offers each item’s row under its name', () => {
    expect(
      sql(
        "SELECT g.day, c.id FROM customers c CROSS JOIN generate_series(c.signup, c.signup + 3, interval '1 day') AS g(day) LEFT JOIN orders o ON o.customer_id = c.id",
      ),
    ).toBe(
      `SELECT g.day, c.id FROM (SELECT *, "c", "g" FROM customers c CROSS JOIN generate_series(c.signup, c.signup + 3, interval '1 day') AS g(day)) AS __lateral LEFT JOIN orders o ON o.customer_id = c.id`,
    );
    expect(translatePostgres('SELECT * FROM a CROSS JOIN b LEFT JOIN c ON true').rewrites).toEqual([]);
    expect(translatePostgres('SELECT * FROM a CROSS JOIN generate_series(1, 2) g JOIN c ON true').rewrites).toEqual([
      'set-returning functions: Postgres row and column shapes',
    ]);
  });

  test('a step written as text is an interval', () => {
    expect(sql("SELECT * FROM generate_series(a, b, '1 month')")).toBe(
      "SELECT * FROM generate_series(a, b, CAST('1 month' AS INTERVAL)) AS generate_series(generate_series)",
    );
  });
});

describe('set operations', () => {
  const check = (text: string, types: string[][]) => {
    try {
      translatePostgresStatement(text).setOperation!.check(types);
      return null;
    } catch (error) {
      return (error as { sqlstate?: string }).sqlstate;
    }
  };

  test('every level with a set operation gives its branches, the CTEs in front', () => {
    expect(translatePostgresStatement('WITH c AS (SELECT 1 AS x) SELECT x FROM c UNION SELECT (SELECT 2 UNION SELECT 3)').setOperation?.branches).toEqual([
      'WITH c AS (SELECT 1 AS x) SELECT x FROM c',
      'WITH c AS (SELECT 1 AS x) SELECT (SELECT 2 AS "?column?" UNION SELECT 3 AS "?column?") AS "?column?"',
      'WITH c AS (SELECT 1 AS x) SELECT 2 AS "?column?"',
      'WITH c AS (SELECT 1 AS x) SELECT 3 AS "?column?"',
    ]);
    expect(translatePostgresStatement('SELECT 1').setOperation).toBeUndefined();
  });

  test('columns of different categories are refused; untyped literals must read as the other side', () => {
    expect(check('SELECT 1 UNION SELECT 2.5', [['INTEGER'], ['DECIMAL(2,1)']])).toBeNull();
    expect(check('SELECT a FROM t UNION SELECT b FROM t', [['BIGINT'], ['VARCHAR']])).toBe('42804');
    expect(check("SELECT 1 UNION SELECT 'a'", [['INTEGER'], ['VARCHAR']])).toBe('22P02');
    expect(check("SELECT 1 UNION SELECT '2'", [['INTEGER'], ['VARCHAR']])).toBeNull();
    expect(check("SELECT NULL UNION SELECT 'a'", [['INTEGER'], ['VARCHAR']])).toBeNull();
    expect(check('SELECT d FROM t UNION SELECT ts FROM t', [['DATE'], ['TIMESTAMP WITH TIME ZONE']])).toBeNull();
  });
});

describe('the macros a statement calls', () => {
  test('with those they call in turn, in an order that creates each after its own, leaving out those created', () => {
    const needed = macrosFor(sql("SELECT justify_days(i), format('%I', s) FROM t"), new Set(), 'memory.main');
    expect(needed.names).toEqual([
      'quote_ident',
      'pgx_array_item',
      'pgx_array_text',
      'pgx_text',
      'pgx_identifier',
      'pgx_interval_parts',
      'pgx_interval_from',
      'pgx_months_of_days',
      'pgx_month_sign',
      'pgx_justify_days',
    ]);
    expect([...needed.sql.matchAll(/CREATE OR REPLACE MACRO memory\.main\.(\w+)/g)].map((match) => match[1])).toEqual(needed.names);
    expect(macrosFor(sql("SELECT format('%I', s) FROM t"), new Set(needed.names), 'memory.main').names).toEqual([]);
    expect(macrosFor('SELECT 1', new Set(), 'memory.main').names).toEqual([]);
  });
});
