import { describe, expect, test } from 'bun:test';
import { dateText, intervalText, timestampText } from '../../src/engine/sql/temporal-text';

const dayMs = 86_400_000;

describe('ISO 8601 text of DuckDB dates and timestamps', () => {
  test('agrees with JavaScript’s Date over the whole range Date covers', () => {
    const limit = 8.64e15;
    for (let i = 0; i < 20_000; i++) {
      const millis = Math.round((Math.random() * 2 - 1) * limit);
      const iso = new Date(millis).toISOString();
      expect(timestampText(BigInt(millis) * 1000n, 'us', true)).toBe(iso);
      expect(timestampText(BigInt(millis), 'ms', false)).toBe(iso.slice(0, -1));
      expect(dateText(Math.floor(millis / dayMs))).toBe(iso.slice(0, iso.indexOf('T')));
    }
  });

  test('exact to the tick on both sides of ±2^53 ticks, given as numbers or as bigints, and a tick before midnight', () => {
    const perSecond = { s: 1n, ms: 1_000n, us: 1_000_000n, ns: 1_000_000_000n } as const;
    /** From Date, whole seconds, and the digits of the rest. */
    const expected = (ticks: bigint, unit: keyof typeof perSecond): string => {
      let seconds = ticks / perSecond[unit];
      if (seconds * perSecond[unit] > ticks) seconds -= 1n;
      const nanos = Number(((ticks - seconds * perSecond[unit]) * 1_000_000_000n) / perSecond[unit]);
      const digits = String(nanos).padStart(9, '0');
      const fraction = nanos % 1_000_000 === 0 ? digits.slice(0, 3) : nanos % 1_000 === 0 ? digits.slice(0, 6) : digits;
      return new Date(Number(seconds) * 1000).toISOString().replace('.000Z', `.${fraction}`);
    };
    const edge = 2n ** 53n;
    const microsPerDay = 86_400_000_000n;
    const cases: [bigint, keyof typeof perSecond][] = [];
    for (const unit of ['us', 'ns'] as const)
      for (const base of [edge - 3n, -edge - 3n]) for (let step = 0n; step < 7n; step++) cases.push([base + step, unit]);
    for (const days of [1n, 100_000n, -100_000n, 104_249n, -104_249n]) cases.push([days * microsPerDay - 1n, 'us'], [days * microsPerDay, 'us']);
    for (let i = 0; i < 5_000; i++) {
      cases.push([BigInt(Math.round((Math.random() * 2 - 1) * 2 ** 53)), 'us'], [BigInt(Math.round((Math.random() * 2 - 1) * 8.64e12)), 's']);
      cases.push([BigInt(Math.round((Math.random() * 2 - 1) * 2 ** 53)), 'ns'], [BigInt(Math.round((Math.random() * 2 - 1) * 8.64e15)), 'ms']);
    }
    const wrong = cases.flatMap(([ticks, unit]) => {
      const want = expected(ticks, unit);
      const asNumber = ticks >= -(edge - 1n) && ticks <= edge - 1n ? timestampText(Number(ticks), unit, true) : want + 'Z';
      return timestampText(ticks, unit, true) === `${want}Z` && asNumber === `${want}Z` ? [] : [{ ticks, unit, want }];
    });
    expect(wrong).toEqual([]);
  });

  test.each([
    [0n, 'us', '1970-01-01T00:00:00.000'],
    [-1n, 'us', '1969-12-31T23:59:59.999999'],
    [1n, 'ns', '1970-01-01T00:00:00.000000001'],
    [-1n, 's', '1969-12-31T23:59:59.000'],
    [2n ** 63n - 1n, 'us', 'infinity'],
    [-(2n ** 63n - 1n), 'ns', '-infinity'],
    [2n ** 63n - 2n, 'us', '+294247-01-10T04:00:54.775806'],
  ] as const)('%p %s is %s', (ticks, unit, text) => {
    expect(timestampText(ticks, unit, false)).toBe(text);
  });

  test.each([
    [2 ** 31 - 1, 'infinity'],
    [-(2 ** 31 - 1), '-infinity'],
    [2 ** 31 - 2, '+5881580-07-10'],
    [-(2 ** 31 - 2), '-5877641-06-25'],
    [-719_528, '0000-01-01'],
    [-719_529, '-000001-12-31'],
  ])('day %p is %s', (days, text) => {
    expect(dateText(days)).toBe(text);
  });

  test.each([
    [0, 0, 0n, 'PT0S'],
    [14, 3, 14_706_789_000n, 'P1Y2M3DT4H5M6.789S'],
    [0, 0, 1n, 'PT0.000001S'],
    [0, 0, -5_400_000_000n, 'PT-1H-30M'],
    [-1, -2, -1_500_000n, 'P-1M-2DT-1.5S'],
    [2_147_483_647, 0, 0n, 'P178956970Y7M'],
  ])('interval %p months %p days %p µs is %s', (months, days, micros, text) => {
    expect(intervalText(months, days, micros)).toBe(text);
  });
});
