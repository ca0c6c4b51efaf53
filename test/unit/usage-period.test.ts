import { describe, expect, test } from 'bun:test';
import { addDays, instantsOf, monthOf, monthPeriod, parseDay, trailingPeriod } from '../../src/usage/usage-period';
import { RequestValidationError } from '../../src/errors/app-error';

const issueOf = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    if (error instanceof RequestValidationError) return error.issues[0];
    throw error;
  }
  throw new Error('no validation error');
};

describe('usage periods', () => {
  test('calendar months know their lengths, leap Februaries included', () => {
    expect(monthOf('2026-02-14')).toEqual({ first: '2026-02-01', last: '2026-02-28' });
    expect(monthOf('2024-02-29')).toEqual({ first: '2024-02-01', last: '2024-02-29' });
    expect(monthOf('2000-02-01').last).toBe('2000-02-29');
    expect(monthOf('2100-02-01').last).toBe('2100-02-28');
    expect(monthOf('2026-12-31')).toEqual({ first: '2026-12-01', last: '2026-12-31' });
  });

  test('a period covers its days from the first midnight to the last millisecond (UTC)', () => {
    expect(instantsOf({ first: '2026-01-31', last: '2026-02-01' })).toEqual({ from: '2026-01-31T00:00:00.000Z', through: '2026-02-01T23:59:59.999Z' });
  });

  test('days move across month and year ends, and stay within the four-digit years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('9999-12-20', 30)).toBe('9999-12-31');
    expect(addDays('0001-01-10', -30)).toBe('0001-01-01');
  });

  test('summary periods: the current month, or the month of the one bound given', () => {
    expect(monthPeriod({}, '2026-03-15')).toEqual({ first: '2026-03-01', last: '2026-03-31' });
    expect(monthPeriod({ start_date: '2026-01-20' }, '2026-03-15')).toEqual({ first: '2026-01-20', last: '2026-01-31' });
    expect(monthPeriod({ end_date: '2026-02-10' }, '2026-03-15')).toEqual({ first: '2026-02-01', last: '2026-02-10' });
    expect(monthPeriod({ start_date: '2025-11-02', end_date: '2026-02-10' }, '2026-03-15')).toEqual({ first: '2025-11-02', last: '2026-02-10' });
  });

  test('daily periods: 30 days up to today, or 30 days from the one bound given; at most 366', () => {
    expect(trailingPeriod({}, '2026-03-01', 30)).toEqual({ first: '2026-01-31', last: '2026-03-01' });
    expect(trailingPeriod({ end_date: '2026-01-05' }, '2026-03-01', 30)).toEqual({ first: '2025-12-07', last: '2026-01-05' });
    expect(trailingPeriod({ start_date: '2024-02-01', end_date: '2025-01-31' }, '2026-03-01', 30).last).toBe('2025-01-31');
    expect(issueOf(() => trailingPeriod({ start_date: '2024-02-01', end_date: '2025-02-01' }, '2026-03-01', 30))).toMatchObject({ loc: ['query', 'end_date'] });
  });

  test('dates must be days of the calendar in YYYY-MM-DD, and in order', () => {
    expect(parseDay('2024-02-29', 'start_date')).toBe('2024-02-29');
    for (const bad of ['2026-02-29', '2026-04-31', '2026-00-10', '2026-1-1', '20260101', '2026-01-01T00:00:00Z', ' 2026-01-01', '0000-12-31', '']) {
      expect(issueOf(() => parseDay(bad, 'start_date'))).toEqual({
        loc: ['query', 'start_date'],
        msg: 'Input should be a valid date in the format YYYY-MM-DD',
        type: 'date_from_datetime_parsing',
      });
    }
    expect(issueOf(() => monthPeriod({ start_date: '2026-02-02', end_date: '2026-02-01' }, '2026-03-15'))).toMatchObject({ loc: ['query', 'start_date'] });
  });
});
