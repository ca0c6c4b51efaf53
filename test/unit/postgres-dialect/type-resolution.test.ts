import { describe, expect, test } from 'bun:test';
import { translatePostgres } from '../../../src/engine/sql/postgres-dialect';
import { macroDefinitions, macrosFor } from '../../../src/engine/sql/postgres-dialect/macros';

const sql = (text: string) => translatePostgres(text).sql;

describe('untyped literals take the common type of the items beside them', () => {
  test('COALESCE, GREATEST, LEAST and NULLIF: the first typed argument carries the check of every literal', () => {
    expect(sql(`SELECT coalesce(qty, 'none') FROM t`)).toBe("SELECT coalesce(pgx_untyped(qty, qty, ['none']), 'none') FROM t");
    expect(sql(`SELECT greatest(a, b, '1.5', 'x') FROM t`)).toBe("SELECT greatest(pgx_untyped(a, [a, b][1], ['1.5', 'x']), b, '1.5', 'x') FROM t");
    expect(sql(`SELECT least(t.day, 'today'), nullif(flag, 'maybe') FROM t`)).toBe(
      "SELECT least(pgx_untyped(t.day, t.day, ['today']), 'today'), nullif(pgx_untyped(flag, flag, ['maybe']), 'maybe') FROM t",
    );
  });

  test('CASE results, IN lists with their operand, ARRAY[…] elements', () => {
    expect(sql(`SELECT CASE WHEN a > 0 THEN a WHEN a < 0 THEN 'neg' ELSE 'zero' END FROM t`)).toBe(
      "SELECT CASE WHEN a > 0 THEN pgx_untyped(a, a, ['neg', 'zero']) WHEN a < 0 THEN 'neg' ELSE 'zero' END FROM t",
    );
    expect(sql(`SELECT id FROM t WHERE qty NOT IN ('1', 'x')`)).toBe("SELECT id FROM t WHERE pgx_untyped(qty, qty, ['1', 'x']) NOT IN ('1', 'x')");
    expect(sql(`SELECT ARRAY[a, 'x'] FROM t`)).toBe("SELECT ARRAY[pgx_untyped(a, a, ['x']), 'x'] FROM t");
  });

  test('left as written: no literal, only literals, constants DuckDB reads while binding, text, aggregates, subqueries, operands joined by operators', () => {
    for (const text of [
      'SELECT coalesce(a, b) FROM t',
      "SELECT coalesce('a', 'b'), CASE WHEN x THEN 'y' ELSE 'n' END FROM t",
      "SELECT coalesce(1, 'a'), greatest(2.5, '1'), ARRAY[1, '2'], 1 IN ('1'), coalesce(NULL, 'a') FROM t",
      "SELECT coalesce(upper(s), 'none'), substring(phone FROM 1 FOR 2) IN ('13', '31') FROM t",
      "SELECT coalesce(sum(qty), 'none'), coalesce(max(a) OVER (), 'x') FROM t",
      "SELECT id FROM t WHERE id IN (SELECT 'a')",
      "SELECT id FROM t WHERE a + b IN ('1', '2')",
      "SELECT CASE WHEN x THEN 1 ELSE 2 END IN ('1') FROM t",
    ]) {
      expect({ text, translated: sql(text) }).toEqual({ text, translated: expect.not.stringContaining('pgx_untyped') });
    }
  });

  test('the check reads each literal as the type DuckDB binds the witness to, with nothing that costs binding (no regular expression, no list of formats); text costs nothing', () => {
    const reader = macroDefinitions.get('pgx_untyped_read')!;
    for (const type of ['SMALLINT', 'INTEGER', 'BIGINT', 'DECIMAL', 'DOUBLE', 'BOOLEAN', 'DATE', 'TIMESTAMP', 'TIMESTAMP WITH TIME ZONE', 'INTERVAL', 'UUID']) {
      expect(reader).toContain(`'${type}`);
    }
    expect(reader).not.toMatch(/regexp|strptime/);
    expect(macroDefinitions.get('pgx_untyped')).toStartWith('pgx_untyped(x, w VARCHAR, literals) AS x, (x, w, literals) AS');
    expect(macroDefinitions.get('pgx_untyped')).toContain('lambda __s: pgx_untyped_read(typeof(w), __s)');
    expect(macrosFor(sql(`SELECT coalesce(qty, 'none') FROM t`), new Set(), 'main').names).toEqual(['pgx_untyped_read', 'pgx_untyped']);
  });
});

describe('arrays compared have one element type', () => {
  test('two ARRAY[…] constructors: the left one’s first element carries the check', () => {
    expect(sql(`SELECT ARRAY[a, b] @> ARRAY[2] FROM t`)).toBe("SELECT ARRAY[pgx_array_pair(a, ARRAY[a, b], ARRAY[2], '@>'), b] @> ARRAY[2] FROM t");
    expect(sql(`SELECT ARRAY[x, y] < ARRAY[0.5, 0] FROM t`)).toBe("SELECT ARRAY[pgx_array_pair(x, ARRAY[x, y], ARRAY[0.5, 0], '<'), y] < ARRAY[0.5, 0] FROM t");
    expect(macrosFor(sql(`SELECT ARRAY[a] = ARRAY[b] FROM t`), new Set(), 'main').names).toEqual(['pgx_array_type_name', 'pgx_array_pair']);
  });

  test('an array that is not a constructor, or a subscripted one, stays', () => {
    for (const text of ['SELECT tags @> ARRAY[2] FROM t', 'SELECT (ARRAY[1, 2])[1] = (ARRAY[1])[1] FROM t', 'SELECT ARRAY[a] || ARRAY[b] FROM t']) {
      expect({ text, translated: sql(text) }).toEqual({ text, translated: expect.not.stringContaining('pgx_array_pair') });
    }
  });
});
