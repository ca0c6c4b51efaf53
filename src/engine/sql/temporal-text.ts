/**
 * ISO 8601 text for DuckDB's dates, timestamps and intervals over their whole range. JavaScript's Date
 * stops at ±275,760 years and knows no infinity, while DuckDB keeps dates to ±5.8 million years,
 * timestamps to ±294,247 and the values `infinity` and `-infinity`; the calendar arithmetic here works
 * on day numbers instead, so every value has a text and none is lost.
 */

export type TimestampUnit = 's' | 'ms' | 'us' | 'ns';

// DuckDB writes infinity as the largest value of the storage type, and -infinity as its negation.
const infiniteTimestamp = 2n ** 63n - 1n;
const infiniteDate = 2 ** 31 - 1;

const ticksPerSecond: Record<TimestampUnit, bigint> = { s: 1n, ms: 1_000n, us: 1_000_000n, ns: 1_000_000_000n };
const ticksPerSecondNumber: Record<TimestampUnit, number> = { s: 1, ms: 1_000, us: 1_000_000, ns: 1_000_000_000 };
const maxExactTicks = BigInt(Number.MAX_SAFE_INTEGER);
const secondsPerDay = 86_400n;

/** `YYYY-MM-DD`; years outside 0000–9999 in the expanded form (`+275760-09-13`, `-000001-12-31`). */
export function dateText(days: number): string {
  if (days === infiniteDate) return 'infinity';
  if (days === -infiniteDate) return '-infinity';
  const { year, month, day } = civilFromDays(days);
  return `${yearText(year)}-${two(month)}-${two(day)}`;
}

/**
 * `YYYY-MM-DDTHH:MM:SS.fff`, with six or nine fraction digits when the value has them, and `Z` for a
 * zoned timestamp (DuckDB keeps those in UTC). Ticks given as a number must be an exact integer.
 */
export function timestampText(ticks: bigint | number, unit: TimestampUnit, zoned: boolean): string {
  if (typeof ticks === 'bigint') {
    if (ticks === infiniteTimestamp) return 'infinity';
    if (ticks === -infiniteTimestamp) return '-infinity';
    if (ticks > maxExactTicks || ticks < -maxExactTicks) return wideTimestampText(ticks, unit, zoned);
  }
  // Within ±2^53 ticks (±285 years of microseconds around 1970) the arithmetic is exact in doubles,
  // and BigInt's, several times slower, is kept for the rest of DuckDB's range.
  const exact = Number(ticks);
  const perSecond = ticksPerSecondNumber[unit];
  const perDay = 86_400 * perSecond;
  let days = Math.floor(exact / perDay);
  let ofDay = exact - days * perDay;
  // The quotient is rounded before the floor; within ±2^53 ticks that never crosses to the next day, and if it did the day is taken back.
  if (ofDay < 0) {
    days -= 1;
    ofDay += perDay;
  }
  const seconds = Math.floor(ofDay / perSecond);
  const nanos = (ofDay - seconds * perSecond) * (1_000_000_000 / perSecond);
  return formatTimestamp(days, seconds, nanos, zoned);
}

function wideTimestampText(ticks: bigint, unit: TimestampUnit, zoned: boolean): string {
  const perDay = secondsPerDay * ticksPerSecond[unit];
  const days = floorDiv(ticks, perDay);
  const ofDay = ticks - days * perDay;
  const seconds = Number(ofDay / ticksPerSecond[unit]);
  const nanos = Number(((ofDay % ticksPerSecond[unit]) * 1_000_000_000n) / ticksPerSecond[unit]);
  return formatTimestamp(Number(days), seconds, nanos, zoned);
}

function formatTimestamp(days: number, seconds: number, nanos: number, zoned: boolean): string {
  const clock = `${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}`;
  return `${dateText(days)}T${clock}.${fractionText(nanos)}${zoned ? 'Z' : ''}`;
}

/** ISO 8601 durations as Postgres writes them with IntervalStyle iso_8601: `P1Y2M3DT4H5M6.5S`, `PT-1H-30M`. */
export function intervalText(months: number, days: number, micros: bigint): string {
  const years = Math.trunc(months / 12);
  const restMonths = months % 12;
  const hours = micros / 3_600_000_000n;
  const minutes = (micros % 3_600_000_000n) / 60_000_000n;
  const secondMicros = micros % 60_000_000n;
  const date = `${years ? `${years}Y` : ''}${restMonths ? `${restMonths}M` : ''}${days ? `${days}D` : ''}`;
  const time = `${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${secondMicros ? `${secondsText(secondMicros)}S` : ''}`;
  if (!date && !time) return 'PT0S';
  return `P${date}${time ? `T${time}` : ''}`;
}

/** Proleptic Gregorian date of a day number counted from 1970-01-01 (H. Hinnant's civil_from_days). */
function civilFromDays(daysSinceEpoch: number): { year: number; month: number; day: number } {
  const shifted = daysSinceEpoch + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return { year, month, day };
}

// ISO 8601's expanded years carry a sign; six digits is the width JavaScript's Date reads and writes.
function yearText(year: number): string {
  if (year >= 0 && year <= 9999) return String(year).padStart(4, '0');
  return `${year < 0 ? '-' : '+'}${String(Math.abs(year)).padStart(6, '0')}`;
}

function fractionText(nanos: number): string {
  if (nanos % 1_000_000 === 0) return `${1000 + nanos / 1_000_000}`.slice(1);
  if (nanos % 1_000 === 0) return `${1_000_000 + nanos / 1_000}`.slice(1);
  return `${1_000_000_000 + nanos}`.slice(1);
}

function secondsText(micros: bigint): string {
  const sign = micros < 0n ? '-' : '';
  const magnitude = micros < 0n ? -micros : micros;
  const whole = magnitude / 1_000_000n;
  const fraction = String(magnitude % 1_000_000n)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const quotient = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? quotient - 1n : quotient;
}

function two(value: number): string {
  return value < 10 ? `0${value}` : `${value}`;
}
