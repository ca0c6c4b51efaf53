import { describe, expect, test } from 'bun:test';
import { typeOfValue } from '../../src/engine/write/column-types';

describe('types inferred from pushed values', () => {
  test('dates name a day of the calendar, leap days included', () => {
    expect(typeOfValue('2024-02-29')).toBe('DATE');
    expect(typeOfValue('2000-02-29')).toBe('DATE');
    expect(typeOfValue('2026-12-31')).toBe('DATE');
    for (const text of [
      '2023-02-29',
      '1900-02-29',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '2026-01-32',
      '0099-01-01',
      '2026-1-01',
      '2026/01/01',
    ]) {
      expect([text, typeOfValue(text)]).toEqual([text, 'VARCHAR']);
    }
  });

  test('timestamps carry a valid day, hour and minute, with or without seconds, fraction and offset', () => {
    for (const text of ['2026-11-21T10:00:00Z', '2026-11-21 23:59', '2024-02-29T00:00:00.123456+02:00', '2026-11-21T10:00:00-0530', '2026-11-21t10:00z']) {
      expect([text, typeOfValue(text)]).toEqual([text, 'TIMESTAMPTZ']);
    }
    for (const text of ['2026-11-21T24:00:00Z', '2026-11-21T10:60:00Z', '2023-02-29T10:00:00Z', '2026-11-21T10', '2026-11-21T10:00:00 UTC']) {
      expect([text, typeOfValue(text)]).toEqual([text, 'VARCHAR']);
    }
  });

  test('other values', () => {
    expect(typeOfValue(3)).toBe('BIGINT');
    expect(typeOfValue(2 ** 60)).toBe('DOUBLE');
    expect(typeOfValue(0.5)).toBe('DOUBLE');
    expect(typeOfValue(true)).toBe('BOOLEAN');
    expect(typeOfValue({ a: 1 })).toBe('JSON');
    expect(typeOfValue(null)).toBeUndefined();
    expect(typeOfValue('customer 1')).toBe('VARCHAR');
  });
});
