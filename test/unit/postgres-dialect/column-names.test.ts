import { describe, expect, test } from 'bun:test';
import { nameResultColumns } from '../../../src/engine/sql/postgres-dialect/column-names';

/** The aliases the naming step gives a SELECT list, in order (null: the item keeps its own name). */
function aliases(sql: string): (string | null)[] {
  const named = nameResultColumns(sql).sql;
  const list = named.slice(named.indexOf('SELECT') + 6, named.search(/\sFROM\s|$/));
  return list.split(/,(?![^()]*\))/).map((item) => /AS "((?:[^"]|"")*)"\s*$/.exec(item.trim())?.[1] ?? null);
}

describe("result column names by Postgres' FigureColname", () => {
  test('functions, aggregates and ordered-set aggregates are named after the function', () => {
    expect(
      aliases('SELECT count(*), sum(x) FILTER (WHERE y), percentile_cont(0.5) WITHIN GROUP (ORDER BY x), rank() OVER (ORDER BY x), s.f(x) FROM t'),
    ).toEqual(['count', 'sum', 'percentile_cont', 'rank', 'f']);
  });

  test('a cast keeps its operand’s name, or takes its type’s when the operand has none', () => {
    expect(
      aliases("SELECT amount::int, CAST(note AS text), 1::bigint, true, false::text, true::int, NULL::int, NULL, date '2024-01-01', '1'::numeric(5, 2) FROM t"),
    ).toEqual(['amount', 'note', 'int8', 'bool', 'text', 'int4', 'int4', '?column?', 'date', 'numeric']);
  });

  test('operators are ?column?; CASE, ARRAY, EXISTS, rows, OVERLAPS and AT TIME ZONE have names of their own', () => {
    expect(
      aliases(
        "SELECT 7 / 2, a || b, CASE WHEN a THEN 1 END, CASE WHEN a THEN 1 ELSE b END, ARRAY[1], EXISTS (SELECT 1), (1, 2), (a, b) OVERLAPS (c, d), ts AT TIME ZONE 'UTC' FROM t",
      ),
    ).toEqual(['?column?', '?column?', 'case', 'b', 'array', 'exists', 'row', 'overlaps', 'timezone']);
  });

  test('plain columns and aliased items keep their names; a scalar subquery is named after its column', () => {
    expect(aliases('SELECT a, t.b, c AS renamed, d e, (SELECT max(x) FROM u) FROM t')).toEqual([null, null, null, null, 'max']);
  });

  test('VALUES lists are named column1, column2, …', () => {
    expect(nameResultColumns("VALUES (1, 'a'), (2, 'b')").sql).toBe(`SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS "*VALUES*"(column1, column2)`);
  });
});
