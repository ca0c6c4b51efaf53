import { describe, expect, test } from 'bun:test';
import { translatePostgres } from '../../../src/engine/sql/postgres-dialect';
import { inputLimits } from '../../../src/engine/sql/input-limits';
import { measureInput } from '../../../src/engine/sql/measure-input';
import { AppError } from '../../../src/errors/app-error';

const repeat = (count: number, item: (i: number) => string, separator: string) => Array.from({ length: count }, (_, i) => item(i)).join(separator);

/**
 * Shapes that once made a pass quadratic (a scan from every position, an edit list searched for
 * every edit, a chain walked again from each operator), each as large as the input limits let it
 * be. A linear translation takes tens of milliseconds on these; a quadratic one, seconds to minutes,
 * so the bounds below leave room for a busy machine and still catch one.
 */
const shapes: Record<string, (n: number) => string> = {
  'unclosed CASE': (n) => `SELECT ${'CASE '.repeat(n)}`,
  'calls rewritten in a FROM list': (n) => `SELECT 1 FROM ${repeat(n, (i) => `generate_series(1, 2) g${i}`, ', ')}`,
  'calls after commas': (n) => `SELECT ${repeat(n, () => 'clock_timestamp()', ', ')}`,
  'a run of signs': (n) => `SELECT 1 ${'+-'.repeat(n)} 1`,
  'descending sort keys': (n) => `SELECT 1 ORDER BY ${repeat(n, () => 'x DESC', ', ')}`,
  'reserved words as columns': (n) => `SELECT ${repeat(n, () => 'at', ', ')}`,
  'a containment chain': (n) => `SELECT a${' @> b'.repeat(n)}`,
  'a regex chain': (n) => `SELECT a${" ~ 'x'".repeat(n)}`,
  'an arrow chain behind concatenations': (n) => `SELECT ${repeat(n, () => "a || j -> 'k'", ' || ')}`,
  'SIMILAR TO chain': (n) => `SELECT ${repeat(n, () => "a SIMILAR TO 'x%'", ' AND ')}`,
  'BETWEEN SYMMETRIC without AND': (n) => `SELECT ${repeat(n, () => 'a BETWEEN SYMMETRIC 1', ' ')}`,
  'FETCH WITH TIES repeated': (n) => `SELECT 1 ORDER BY 1 ${'FETCH FIRST 1 ROWS WITH TIES '.repeat(n)}`,
  'to_char list': (n) => `SELECT ${repeat(n, () => "to_char(ts, 'YYYY-MM-DD')", ', ')}`,
  'casts to jsonb': (n) => `SELECT ${repeat(n, () => 'x::jsonb', ', ')}`,
  divisions: (n) => `SELECT ${repeat(n, () => '7', ' / ')}`,
  'time travel list': (n) => `SELECT 1 FROM ${repeat(n, (i) => `t${i} FOR SYSTEM_TIME AS OF '2020-01-01'`, ', ')}`,
  'a long IN list': (n) => `SELECT 1 IN (${repeat(n, String, ', ')})`,
  'macro calls side by side': (n) => `SELECT ${repeat(n, (i) => `width_bucket(c${i}, 0, 10, 5)`, ', ')}`,
};

/** Translates, or refuses as too complex (macro calls that DuckDB would expand too far): either way in linear time. */
function translatedOrTooComplex(sql: string): void {
  try {
    translatePostgres(sql);
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'QUERY_TOO_COMPLEX')) throw error;
  }
}

describe('the Postgres translation takes linear time', () => {
  for (const [name, shape] of Object.entries(shapes)) {
    test(name, () => {
      // As many items as the input limits let through.
      const fits = (sql: string) => {
        const size = measureInput(sql, inputLimits);
        return (
          sql.length <= inputLimits.maxLength &&
          size.tokens <= inputLimits.maxTokens &&
          size.listItems <= inputLimits.maxListItems &&
          size.depth <= inputLimits.maxDepth
        );
      };
      let count = 1;
      while (count < 1_000_000 && fits(shape(count * 2))) count *= 2;
      const sql = shape(count);
      const startedAt = performance.now();
      translatedOrTooComplex(sql);
      expect(performance.now() - startedAt).toBeLessThan(10_000);
    });
  }

  test('literals that rewrites read inside take linear time and no stack, however long or nested', () => {
    const n = 100_000;
    for (const sql of [
      `SELECT '${'{'.repeat(n)}1${'}'.repeat(n)}'::int[]`,
      `SELECT '{${repeat(n, () => '1', ',')}}'::int[]`,
      `SELECT j ?| '${'{'.repeat(n)}${'}'.repeat(n)}'`,
      `SELECT j #> '{${repeat(n, () => 'a', ',')}}'`,
      `SELECT x SIMILAR TO '${'(a_%'.repeat(n)}'`,
      `SELECT to_char(now(), '${'YYYY-MM-DD '.repeat(n / 4)}')`,
      `SELECT to_char(1, 'FM${'9'.repeat(n)}.00')`,
      `SELECT format('${'%s'.repeat(n)}', 1)`,
      `SELECT x LIKE '${'\\_'.repeat(n)}'`,
    ]) {
      const startedAt = performance.now();
      translatePostgres(sql);
      expect(performance.now() - startedAt).toBeLessThan(10_000);
    }
  });

  test('nested rewrites that copy their arguments are stopped by the budget, quickly', () => {
    for (const sql of [
      `SELECT ${'regexp_instr('.repeat(20)}x${", 'a')".repeat(20)}`,
      `SELECT ${'json_typeof('.repeat(20)}x${')'.repeat(20)}`,
      `SELECT ${'btrim('.repeat(100)}${repeat(12_000, (i) => `x${i}`, ' || ')}${')'.repeat(100)}`,
      // One rewrite alone: a group per parenthesis of a pattern, an expression per field of a template.
      `SELECT regexp_match(x, '${'(a)'.repeat(100_000)}')`,
      `SELECT to_char(${repeat(2_000, (i) => `c${i}`, ' + ')}, '${'Q'.repeat(1_000)}')`,
    ]) {
      const startedAt = performance.now();
      let code: string | undefined;
      try {
        translatePostgres(sql);
      } catch (error) {
        code = error instanceof AppError ? error.code : String(error);
      }
      expect(code).toBe('QUERY_TOO_COMPLEX');
      expect(performance.now() - startedAt).toBeLessThan(10_000);
    }
  });
});
