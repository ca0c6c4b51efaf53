import { describe, expect, test } from 'bun:test';
import { AppError, type RequestValidationError } from '../../src/errors/app-error';
import { parameterizedSql, hasPlaceholders } from '../../src/sharing/placeholders';
import { bindValues, checkValue } from '../../src/sharing/parameters';
import { SharedReads } from '../../src/sharing/shared-reads';
import { MemoryViewLimits } from '../../src/sharing/public-throttle';
import { TestClock } from '../support/test-clock';

const at = { sql: ['body', 'sql'], parameters: ['body', 'parameters'] };

describe('placeholders', () => {
  test('become typed markers outside strings, quoted names, comments and dollar quotes', () => {
    const sql = `SELECT {{a}}, '{{a}}', "{{a}}", E'it\\'s {{a}}', $$ {{a}} $$, $tag$ {{a}} $tag$ -- {{a}}
      /* {{a}} /* nested {{a}} */ still {{a}} */ FROM t WHERE x = {{ b }}`;
    const { sql: out, names } = parameterizedSql(
      sql,
      [
        { name: 'a', type: 'integer' },
        { name: 'b', type: 'date' },
      ],
      at,
    );
    expect(names.sort()).toEqual(['a', 'b']);
    expect(out.match(/CAST\(\$a AS BIGINT\)/g)?.length).toBe(1);
    expect(out).toContain('CAST($b AS DATE)');
    expect(out).toContain("'{{a}}'");
    expect(out).toContain('still {{a}} */');
  });

  test('raw markers, undeclared and unused parameters are refused with their place', () => {
    const issues = (sql: string, parameters: { name: string; type: 'string' }[] = []) => {
      try {
        parameterizedSql(sql, parameters, at);
        return [];
      } catch (error) {
        return (error as RequestValidationError).issues.map((issue) => issue.loc);
      }
    };
    expect(issues('SELECT $1')).toEqual([['body', 'sql']]);
    expect(issues('SELECT $name')).toEqual([['body', 'sql']]);
    expect(issues('SELECT {{x}}')).toEqual([['body', 'sql']]);
    expect(issues("SELECT '{{x}}'", [{ name: 'x', type: 'string' }])).toEqual([['body', 'parameters', 0, 'name']]);
    expect(issues('SELECT $$ $1 $$, a$1 FROM t')).toEqual([]);
    expect(hasPlaceholders("SELECT '{{x}}'")).toBe(false);
    expect(hasPlaceholders('SELECT {{x}}')).toBe(true);
  });
});

describe('parameter values', () => {
  test('each type takes what fits and refuses the rest', () => {
    const ok = (type: Parameters<typeof checkValue>[0]['type'], value: unknown, options?: string[]) => checkValue({ name: 'p', type, options }, value).ok;
    expect([ok('integer', 5), ok('integer', '-12'), ok('integer', '9223372036854775807')]).toEqual([true, true, true]);
    expect([ok('integer', 1.5), ok('integer', '9223372036854775808'), ok('integer', '1e3'), ok('integer', true)]).toEqual([false, false, false, false]);
    expect([ok('number', 1.5), ok('number', '2.5e3'), ok('number', 'Infinity'), ok('number', '')]).toEqual([true, true, false, false]);
    expect([ok('boolean', false), ok('boolean', 'false')]).toEqual([true, false]);
    expect([ok('date', '2024-02-29'), ok('date', '2023-02-29'), ok('date', '2024-2-1')]).toEqual([true, false, false]);
    expect([ok('timestamp', '2026-01-01T10:00:00Z'), ok('timestamp', '2026-01-01 10:00'), ok('timestamp', '2026-01-01T25:00:00Z')]).toEqual([
      true,
      true,
      false,
    ]);
    expect([ok('enum', 'a', ['a', 'b']), ok('enum', 'c', ['a', 'b'])]).toEqual([true, false]);
  });

  test('defaults apply, optional parameters are NULL, integers bind as 64-bit, timestamps without an offset are UTC', () => {
    const { values, issues } = bindValues(
      [
        { name: 'n', type: 'integer', default: 7 },
        { name: 'maybe', type: 'string', required: false },
        { name: 'at', type: 'timestamp' },
      ],
      { at: '2026-01-01T00:00:00' },
    );
    expect(issues).toEqual([]);
    expect(values).toEqual({ n: 7n, maybe: null, at: '2026-01-01T00:00:00Z' });
  });
});

describe('shared reads', () => {
  test('views arriving in the same turn share one read, which starts on the next turn; views arriving during a read share the next one, which starts after that read ends', async () => {
    let reads = 0;
    const started: number[] = [];
    const pending: ((value: number) => void)[] = [];
    const snapshots = new SharedReads((key) => {
      expect(key).toBe('w');
      started.push(++reads);
      return new Promise<number>((resolve) => pending.push(resolve));
    });
    const together = Array.from({ length: 3 }, () => snapshots.current('w'));
    expect(started).toEqual([]);
    await Bun.sleep(0);
    expect(started).toEqual([1]);
    const during = Array.from({ length: 5 }, () => snapshots.current('w'));
    await Bun.sleep(0);
    expect(started).toEqual([1]);
    pending.shift()!(10);
    expect(await Promise.all(together)).toEqual([10, 10, 10]);
    await Bun.sleep(0);
    expect(started).toEqual([1, 2]);
    pending.shift()!(11);
    expect(await Promise.all(during)).toEqual([11, 11, 11, 11, 11]);
    const later = snapshots.current('w');
    await Bun.sleep(0);
    expect(started).toEqual([1, 2, 3]);
    pending.shift()!(12);
    expect(await later).toBe(12);
  });

  test('keys are read apart, and a failed read fails only the views that shared it', async () => {
    const reads: string[] = [];
    const shared = new SharedReads(async (key) => {
      reads.push(key);
      if (reads.length === 1) throw new Error('the store is away');
      return key.toUpperCase();
    });
    const failed = Promise.all([shared.current('a'), shared.current('a')]);
    expect(failed).rejects.toThrow('the store is away');
    await failed.catch(() => {});
    expect(await Promise.all([shared.current('a'), shared.current('b')])).toEqual(['A', 'B']);
    expect(reads).toEqual(['a', 'a', 'b']);
  });
});

describe('view limits', () => {
  test('a sliding minute per key: refused beyond the limit with Retry-After, open again once the window moves on', async () => {
    const clock = new TestClock();
    const limits = new MemoryViewLimits({ address: 100, link: 3 }, clock);
    const view = (key: string) => limits.take([{ limit: 'link', key }]);
    for (let i = 0; i < 3; i++) await view('k');
    let refused: unknown;
    try {
      await view('k');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('RATE_LIMITED');
    expect(Number((refused as AppError).headers['retry-after'])).toBeGreaterThan(0);
    await view('other');
    clock.advance(121_000);
    await view('k');
  });
});
