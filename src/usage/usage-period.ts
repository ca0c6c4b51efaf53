import { RequestValidationError } from '../errors/app-error';

/** A span of whole UTC days, both ends included, as `YYYY-MM-DD`. */
export interface DayRange {
  first: string;
  last: string;
}

const dayMs = 86_400_000;
const datePattern = /^\d{4}-\d{2}-\d{2}$/;
// Year 0 is no year to Postgres; four digits end at 9999.
const firstDay = '0001-01-01';
const lastDay = '9999-12-31';
/** The longest daily list one request returns: a leap year. */
export const maxDailyDays = 366;

/** The UTC day of an instant. */
export function dayOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** The day `days` after (or before) another, kept within the years a date parameter can name. */
export function addDays(day: string, days: number): string {
  const moved = Date.parse(`${day}T00:00:00Z`) + days * dayMs;
  return dayOf(new Date(Math.min(Math.max(moved, Date.parse(`${firstDay}T00:00:00Z`)), Date.parse(`${lastDay}T00:00:00Z`))));
}

/** Days from `first` to `last`, both counted. */
export function daysBetween(range: DayRange): number {
  return Math.round((Date.parse(`${range.last}T00:00:00Z`) - Date.parse(`${range.first}T00:00:00Z`)) / dayMs) + 1;
}

/** The calendar month (UTC) a day falls in. */
export function monthOf(day: string): DayRange {
  const [year, month] = [Number(day.slice(0, 4)), Number(day.slice(5, 7))];
  const lastDate = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return { first: `${day.slice(0, 7)}-01`, last: `${day.slice(0, 7)}-${String(lastDate).padStart(2, '0')}` };
}

/** The instants a range covers: from its first midnight to the last millisecond of its last day (times are kept to the millisecond). */
export function instantsOf(range: DayRange): { from: string; through: string } {
  return { from: `${range.first}T00:00:00.000Z`, through: `${range.last}T23:59:59.999Z` };
}

/**
 * A `YYYY-MM-DD` query parameter: the format, and a day the calendar has (no 2026-02-30). Anything
 * else is a 422 naming the parameter.
 */
export function parseDay(value: string | undefined, parameter: string): string | undefined {
  if (value === undefined) return undefined;
  // Date.parse rolls 2026-02-30 over into March (or refuses it): a day the calendar has reads back the same.
  const parsed = datePattern.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(parsed) || dayOf(new Date(parsed)) !== value || value < firstDay) {
    throw RequestValidationError.at(['query', parameter], 'Input should be a valid date in the format YYYY-MM-DD', 'date_from_datetime_parsing');
  }
  return value;
}

export interface DateBounds {
  start_date?: string;
  end_date?: string;
}

/**
 * The period of a summary or an export: a calendar month by default. A missing bound comes from the
 * one given: the first day of end_date's month, or the last day of start_date's month.
 */
export function monthPeriod(bounds: DateBounds, today: string): DayRange {
  const first = parseDay(bounds.start_date, 'start_date');
  const last = parseDay(bounds.end_date, 'end_date');
  return ordered({ first: first ?? monthOf(last ?? today).first, last: last ?? monthOf(first ?? today).last });
}

/**
 * The period of the daily list: the last `days` days up to today by default. A missing bound comes
 * from the one given, `days` away; at most maxDailyDays days.
 */
export function trailingPeriod(bounds: DateBounds, today: string, days: number): DayRange {
  const first = parseDay(bounds.start_date, 'start_date');
  const last = parseDay(bounds.end_date, 'end_date');
  const range = ordered({ first: first ?? addDays(last ?? today, 1 - days), last: last ?? (first ? addDays(first, days - 1) : today) });
  if (daysBetween(range) > maxDailyDays) {
    throw RequestValidationError.at(['query', 'end_date'], `The period may span at most ${maxDailyDays} days; ask for several periods`, 'value_error');
  }
  return range;
}

function ordered(range: DayRange): DayRange {
  if (range.first > range.last) {
    throw RequestValidationError.at(['query', 'start_date'], `start_date (${range.first}) should be on or before end_date (${range.last})`, 'value_error');
  }
  return range;
}
