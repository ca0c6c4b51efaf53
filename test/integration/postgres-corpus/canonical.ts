/**
 * The common form both engines' results are compared in. Numbers carry a tag so that they compare
 * within a tolerance; times are strings with their kind as prefix (`ts:`, `date:`, `time:`,
 * `interval:`) so a date never equals a string that looks like one; JSON is parsed and compared by
 * value (object key order ignored, numbers by value).
 */
export type Canonical = null | boolean | string | { num: number } | { json: Canonical } | Canonical[] | { object: Record<string, Canonical> };

export const num = (value: number | string | bigint): Canonical => ({ num: Number(value) });

/** Any JSON value (parsed), in canonical form. */
export function canonicalJson(value: unknown): Canonical {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return num(value);
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(canonicalJson);
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { object: Object.fromEntries(entries.map(([key, item]) => [key, canonicalJson(item)])) };
}

/** `YYYY-MM-DD HH:MM:SS[.f][±HH[:MM]]` as `ts:YYYY-MM-DD HH:MM:SS.ffffff` in UTC; other text unchanged. */
export function canonicalTimestamp(text: string): Canonical {
  const match = /^(\d{4,}-\d\d-\d\d)[ T](\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:([+-])(\d\d)(?::?(\d\d))?(?::?(\d\d))?)?$/.exec(text);
  if (!match) return `ts:${text}`;
  const [, date, hours, minutes, seconds, fraction = '', sign, offsetHours = '0', offsetMinutes = '0', offsetSeconds = '0'] = match;
  const offset = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(offsetHours) * 3600 + Number(offsetMinutes) * 60 + Number(offsetSeconds));
  const [year, month, day] = date!.split('-').map(Number) as [number, number, number];
  const utc = new Date(Date.UTC(year, month - 1, day, Number(hours), Number(minutes), Number(seconds) - offset));
  const micros = fraction.padEnd(6, '0').slice(0, 6);
  return `ts:${utc.toISOString().slice(0, 19).replace('T', ' ')}.${micros}`;
}

export function canonicalTime(text: string): Canonical {
  const [clock, fraction = ''] = text.split('.');
  return `time:${clock}.${fraction.padEnd(6, '0')}`;
}

export function canonicalInterval(months: number, days: number, micros: number): Canonical {
  return `interval:${months}m ${days}d ${micros}us`;
}

const relativeTolerance = 1e-9;
// Below this, two numbers are equal however different relatively: floating-point dust around zero.
const absoluteTolerance = 1e-12;

export function canonicalEqual(a: Canonical, b: Canonical): boolean {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => canonicalEqual(item, b[i]!));
  }
  if ('num' in a || 'num' in b) return 'num' in a && 'num' in b && numbersEqual(a.num, b.num);
  if ('json' in a || 'json' in b) return 'json' in a && 'json' in b && canonicalEqual(a.json, b.json);
  const keys = Object.keys(a.object);
  return keys.length === Object.keys(b.object).length && keys.every((key) => key in b.object && canonicalEqual(a.object[key]!, b.object[key]!));
}

function numbersEqual(a: number, b: number): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  const difference = Math.abs(a - b);
  return a === b || difference <= absoluteTolerance || difference <= relativeTolerance * Math.max(Math.abs(a), Math.abs(b));
}

/** A stable text for sorting rows whose order does not matter; numbers rounded so tolerance cannot reorder. */
export function sortKey(row: readonly Canonical[]): string {
  return JSON.stringify(row, (_key, value: unknown) =>
    value !== null && typeof value === 'object' && 'num' in value ? { num: Number((value as { num: number }).num.toPrecision(8)) } : value,
  );
}
