import { describe, expect, test } from 'bun:test';
import { translatePostgres } from '../../../src/engine/sql/postgres-dialect';
import { expandedSize, macroShape } from '../../../src/engine/sql/postgres-dialect/macro-expansion';
import { duckdbMacroDefinitions } from '../../../src/engine/sql/postgres-dialect/duckdb-macros';
import { macroDefinitions } from '../../../src/engine/sql/postgres-dialect/macros';
import { parseTree } from '../../../src/engine/sql/postgres-dialect/token-tree';
import { inputLimits } from '../../../src/engine/sql/input-limits';
import { measureInput } from '../../../src/engine/sql/measure-input';
import { AppError } from '../../../src/errors/app-error';

const repeat = (count: number, item: (i: number) => string, separator: string) => Array.from({ length: count }, (_, i) => item(i)).join(separator);

/** The code translatePostgres refuses a statement with, or null when it translates it. */
function refusal(sql: string): string | null {
  try {
    translatePostgres(sql);
    return null;
  } catch (error) {
    return error instanceof AppError ? error.code : String(error);
  }
}

/** `name(…)` nested `depth` times through the argument at `position`, every other argument a column. */
function nestedCall(name: string, position: number, arity: number, depth: number, innermost = 'c'): string {
  let expression = innermost;
  for (let level = 0; level < depth; level += 1) {
    const args = Array.from({ length: arity }, (_, index) => (index === position ? expression : `a${index}`));
    expression = `${name}(${args.join(', ')})`;
  }
  return expression;
}

/** Every parameter of every macro (the dialect's and DuckDB's own) that its body, or a macro it calls, uses more than once. */
const copying = [...macroDefinitions.keys(), ...duckdbMacroDefinitions.map((definition) => /^\w+/.exec(definition)![0])].flatMap((name) => {
  const shape = macroShape(name)!;
  return shape.copies.flatMap((copies, position) => (copies > 1 ? [{ name, position, arity: shape.copies.length, copies }] : []));
});

describe('what a macro copies, read from its definition', () => {
  test('each use of a parameter as a whole word, in every overload, through the macros its body calls', () => {
    // x six times, lo eight, hi six, n five (as in the definition).
    expect(macroShape('pgx_width_bucket')!.copies).toEqual([6, 8, 6, 5]);
    // x in contains(x, …) and upper(x), and in the list DuckDB's own array_to_string (a macro too) uses twice.
    expect(macroShape('pgx_upper')!.copies).toEqual([4]);
    expect(macroShape('array_to_string')!.copies).toEqual([2, 1]);
    // DuckDB's names are compared as it compares them: `"delimiter"` in a body is the parameter delimiter.
    expect(macroShape('split_part')!.copies).toEqual([2, 2, 2]);
    expect(macroShape('nullif')!.copies).toEqual([2, 1]);
    // pgx_power uses x twice and passes it to pgx_finite twice over (as r inside power(x, y), which it uses three times, and as x, three times).
    expect(macroShape('pgx_power')!.copies).toEqual([8, 6]);
    // A parameter's name inside a string literal or after a dot (`__q.m`, `'m': m / f`) is no use of it.
    expect(macroShape('pgx_interval_div')!.copies).toEqual([1, 1, 1, 3]);
    // The largest of the overloads': the last one of pgx_sum_arg tests typeof(x), then gives x.
    expect(macroShape('pgx_sum_arg')!.copies).toEqual([2]);
    expect(macroShape('PGX_UPPER')).toEqual(macroShape('pgx_upper'));
    expect(macroShape('upper')).toBeNull();
  });

  test('the macros the translation calls with an argument copied, and those of DuckDB itself, are among those counted', () => {
    const names = new Set(copying.map(({ name }) => name));
    for (const name of [
      'pgx_width_bucket',
      'pgx_upper',
      'pgx_lpad',
      'pgx_rpad',
      'pgx_split_part',
      'pgx_to_char_value',
      'pgx_string_to_array',
      'pgx_text',
      'pgx_int4',
      'nullif',
      'split_part',
      'array_to_string',
      'fmod',
      'round_even',
      'roundbankers',
      'weighted_avg',
    ]) {
      expect({ name, copied: names.has(name) }).toEqual({ name, copied: true });
    }
  });

  test('a call is its body plus each argument times its copies, nested calls in turn; a plain node counts one', () => {
    const { body, copies } = macroShape('pgx_upper')!;
    expect(expandedSize(parseTree('SELECT c'))).toBe(2);
    expect(expandedSize(parseTree('SELECT f(c, d)'))).toBe(6);
    let expected = 1;
    for (let depth = 1; depth <= 6; depth += 1) {
      expected = body + copies[0]! * expected;
      expect(expandedSize(parseTree(nestedCall('pgx_upper', 0, 1, depth)))).toBe(expected);
    }
  });
});

describe('nested macro calls are refused before DuckDB expands them', () => {
  test('every macro nested through an argument it copies, as the user writes it: QUERY_TOO_COMPLEX, quickly', () => {
    expect(copying.length).toBeGreaterThan(40);
    const accepted: unknown[] = [];
    for (const { name, position, arity, copies } of copying) {
      // Deep enough that the copies alone pass 10^12 nodes.
      const depth = Math.ceil(12 / Math.log10(copies));
      const startedAt = performance.now();
      const code = refusal(`SELECT ${nestedCall(name, position, arity, depth)} FROM t`);
      const elapsedMs = performance.now() - startedAt;
      if (code !== 'QUERY_TOO_COMPLEX' || elapsedMs > 2_000) accepted.push({ name, position, code, elapsedMs });
    }
    expect(accepted).toEqual([]);
  });

  test('Postgres calls the translation writes as copying macros, nested 20 deep', () => {
    for (const sql of [
      `SELECT ${'width_bucket('.repeat(20)}1${', 0, 10, 5)'.repeat(20)}`,
      `SELECT ${'width_bucket('.repeat(20)}x${', lo, hi, n)'.repeat(20)} FROM t`,
      `SELECT ${'upper('.repeat(20)}s${')'.repeat(20)} FROM t`,
      `SELECT ${'lpad('.repeat(20)}s${', 5, f)'.repeat(20)} FROM t`,
      `SELECT ${'rpad('.repeat(20)}s${", 5, '')".repeat(20)} FROM t`,
      `SELECT ${'split_part('.repeat(20)}s${', d, 2)'.repeat(20)} FROM t`,
      `SELECT ${'string_to_array(array_to_string('.repeat(20)}s${', d), d)'.repeat(20)} FROM t`,
      `SELECT ${'to_char(length('.repeat(20)}x${"), '999.99')".repeat(20)} FROM t`,
      `SELECT ${"format('%s', ".repeat(20)}ARRAY[x]${')'.repeat(20)} FROM t`,
      `SELECT ${'power('.repeat(20)}x${', 2)'.repeat(20)} FROM t`,
      `SELECT ${'('.repeat(20)}s${')::int'.repeat(20)} FROM t`,
      // DuckDB's own macros, as written: the translation leaves them alone.
      `SELECT ${'nullif('.repeat(40)}x${', 0)'.repeat(40)} FROM t`,
      `SELECT ${'split_part('.repeat(40)}s${", ',', 1)".repeat(40)} FROM t`,
      `SELECT ${'array_to_string(['.repeat(40)}s${"], ',')".repeat(40)} FROM t`,
    ]) {
      expect({ sql: sql.slice(0, 40), code: refusal(sql) }).toEqual({ sql: sql.slice(0, 40), code: 'QUERY_TOO_COMPLEX' });
    }
  });

  test('inside lambdas, subqueries, CTEs and DuckDB call chains alike', () => {
    const deep = nestedCall('pgx_width_bucket', 0, 4, 20, 'e');
    for (const sql of [
      `SELECT list_transform(l, lambda e: ${deep}) FROM t`,
      `SELECT list_transform(l, e -> [${deep}]) FROM t`,
      `SELECT (SELECT max(${deep}) FROM u) FROM t`,
      `SELECT 1 FROM (SELECT ${deep} AS b FROM t) s WHERE EXISTS (SELECT 1)`,
      `WITH w AS (SELECT ${deep} AS b FROM t) SELECT * FROM w`,
      `SELECT * FROM t WHERE ${deep} > 2`,
      // DuckDB's chaining: x.f(a) is f(x, a).
      `SELECT s${'.pgx_upper()'.repeat(30)} FROM t`,
      `SELECT (s)${'.pgx_lpad(5, f)'.repeat(30)} FROM t`,
      `SELECT x${'.pgx_width_bucket(0, 10, 5)'.repeat(20)} FROM t`,
      // A macro named with its schema.
      `SELECT ${'memory.main.pgx_upper('.repeat(30)}s${')'.repeat(30)} FROM t`,
      // A macro's name quoted, in any case: the walk is skipped only for a statement that names none.
      `SELECT ${'"pgx_upper"('.repeat(30)}s${')'.repeat(30)} FROM t`,
      `SELECT ${'"NULLIF"('.repeat(40)}x${', 0)'.repeat(40)} FROM t`,
      // Macro calls a rewrite builds around the operand's own nodes.
      `SELECT ${'CAST('.repeat(20)}s${' AS int)'.repeat(20)} FROM t`,
      `SELECT ${'CAST(('.repeat(20)}s${')::bigint AS date)'.repeat(20)} FROM t`,
    ]) {
      expect({ sql: sql.slice(0, 40), code: refusal(sql) }).toEqual({ sql: sql.slice(0, 40), code: 'QUERY_TOO_COMPLEX' });
    }
  });
});

describe('wide or shallow statements stay accepted', () => {
  /** As many items as fit in `tokens` tokens and the other input limits. */
  const widest = (shape: (n: number) => string, tokens = inputLimits.maxTokens) => {
    const fits = (sql: string) => {
      const size = measureInput(sql, inputLimits);
      return sql.length <= inputLimits.maxLength && size.tokens <= tokens && size.listItems <= inputLimits.maxListItems && size.depth <= inputLimits.maxDepth;
    };
    let count = 1;
    while (fits(shape(count * 2))) count *= 2;
    return shape(count);
  };

  test('copying calls side by side, a thousand of them (more than the widest dashboard query holds; fewer of the larger ones), stay accepted', () => {
    const calls = 1_000;
    const statements = [
      `SELECT ${repeat(calls, (i) => `width_bucket(c${i}, 0, 10, 5)`, ', ')} FROM t`,
      `SELECT ${repeat(calls, (i) => `c${i}::int`, ', ')} FROM t`,
      `SELECT ${repeat(calls, (i) => `to_char(c${i}, 'FM999,999.00')`, ', ')} FROM t`,
      `SELECT ${repeat(calls, (i) => `nullif(c${i}, 0)`, ', ')} FROM t`,
      `SELECT list_transform(l, lambda e: ${repeat(calls, (i) => `pgx_upper(e${i})`, ' || ')}) FROM t`,
      // Three copying macros in one another, each a few hundred nodes once expanded: two hundred of them.
      `SELECT ${repeat(calls / 5, (i) => `upper(lpad(split_part(s${i}, d, 2), 5, f))`, ' || ')} FROM t`,
      // format() becomes some four hundred nodes a call: a quarter as many.
      `SELECT ${repeat(calls / 4, (i) => `format('%s', c${i})`, ', ')} FROM t`,
    ];
    for (const sql of statements) {
      expect({ sql: sql.slice(0, 40), code: refusal(sql) }).toEqual({ sql: sql.slice(0, 40), code: null });
    }
  });

  test('copying calls side by side up to the input limits: accepted or refused as too complex, never sent to DuckDB beyond the bound', () => {
    const statements = [
      widest((n) => `SELECT ${repeat(n, (i) => `width_bucket(c${i}, 0, 10, 5)`, ', ')} FROM t`),
      widest((n) => `SELECT ${repeat(n, (i) => `upper(lpad(split_part(s${i}, d, 2), 5, f))`, ' || ')} FROM t`),
    ];
    for (const sql of statements) {
      const code = refusal(sql);
      const size = code === null ? expandedSize(parseTree(translatePostgres(sql).sql)) : undefined;
      expect(code === 'QUERY_TOO_COMPLEX' || (size !== undefined && size <= 200_000 + sql.length)).toBe(true);
    }
  }, 30_000);

  test('nesting as analysts write it: a few levels of copying calls', () => {
    for (const sql of [
      `SELECT width_bucket(width_bucket(width_bucket(x, 0, 10, 5), 0, 6, 3), 0, 4, 2) FROM t`,
      `SELECT upper(lpad(split_part(upper(s), d, 2), 10, f)) FROM t`,
      `SELECT format('%s: %s', upper(s), to_char(x, 'FM999.00')), justify_interval(i) FROM t`,
      `SELECT ${nestedCall('pgx_upper', 0, 1, 6, 's')} FROM t`,
      `SELECT s${'.pgx_upper()'.repeat(5)} FROM t`,
    ]) {
      expect({ sql: sql.slice(0, 40), code: refusal(sql) }).toEqual({ sql: sql.slice(0, 40), code: null });
    }
  });
});
