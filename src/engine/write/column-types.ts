/**
 * The types a write infers from its values, from narrowest to widest within each family:
 * integers → BIGINT, fractions → DOUBLE, booleans → BOOLEAN, ISO-8601 timestamps → TIMESTAMPTZ,
 * dates → DATE, other strings → VARCHAR, objects and arrays → JSON.
 */
export type ValueType = 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'TIMESTAMPTZ' | 'DATE' | 'VARCHAR' | 'JSON';

const isoTimestamp = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)?$/i;
const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/** The type a single JSON value suggests; undefined for null (it says nothing about the type). */
export function typeOfValue(value: unknown): ValueType | undefined {
  switch (typeof value) {
    case 'boolean':
      return 'BOOLEAN';
    case 'number':
      return Number.isInteger(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER ? 'BIGINT' : 'DOUBLE';
    case 'string':
      return typeOfString(value);
    case 'object':
      return value === null ? undefined : 'JSON';
    default:
      return 'VARCHAR';
  }
}

function typeOfString(value: string): ValueType {
  // Cheap first test: dates and timestamps start with four digits and a hyphen.
  if (value.length < 10 || value.charCodeAt(4) !== 45 || value.charCodeAt(0) < 48 || value.charCodeAt(0) > 57) return 'VARCHAR';
  if (value.length === 10) return isoDate.test(value) && isValidDate(value) ? 'DATE' : 'VARCHAR';
  return isoTimestamp.test(value) && isValidTimestamp(value) ? 'TIMESTAMPTZ' : 'VARCHAR';
}

/**
 * The narrowest type holding values of both: BIGINT widens to DOUBLE, DATE to TIMESTAMPTZ; VARCHAR
 * holds anything as text; JSON holds any other value; anything else that differs becomes VARCHAR.
 */
export function widen(a: ValueType, b: ValueType): ValueType {
  // Called for every value that differs from its column's type so far (integers among fractions):
  // plain comparisons, no allocation.
  if (a === b) return a;
  if (a === 'VARCHAR' || b === 'VARCHAR') return 'VARCHAR';
  if (a === 'JSON' || b === 'JSON') return 'JSON';
  if ((a === 'BIGINT' && b === 'DOUBLE') || (a === 'DOUBLE' && b === 'BIGINT')) return 'DOUBLE';
  if ((a === 'DATE' && b === 'TIMESTAMPTZ') || (a === 'TIMESTAMPTZ' && b === 'DATE')) return 'TIMESTAMPTZ';
  return 'VARCHAR';
}

/** How an existing column's DuckDB type reads in the push lattice (tables made otherwise included). */
export function valueTypeOf(duckdbType: string): ValueType {
  const type = duckdbType.toUpperCase();
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|UTINYINT|USMALLINT|UINTEGER|INT\d*)$/.test(type)) return 'BIGINT';
  if (/^(FLOAT|DOUBLE|REAL|DECIMAL.*|NUMERIC.*|HUGEINT|UBIGINT)$/.test(type)) return 'DOUBLE';
  if (type === 'BOOLEAN') return 'BOOLEAN';
  if (type.startsWith('TIMESTAMP')) return 'TIMESTAMPTZ';
  if (type === 'DATE') return 'DATE';
  if (type === 'JSON') return 'JSON';
  return 'VARCHAR';
}

/** Whether DuckLake can change a column from one type to the other in place (a widening promotion). */
export function canPromoteInPlace(from: ValueType, to: ValueType): boolean {
  return from === 'BIGINT' && to === 'DOUBLE';
}

// The offset is optional: a timestamp without one is UTC (the engine runs in UTC). Read digit by
// digit: every string value of a push that looks like a date passes here, so no allocation.
function isValidTimestamp(value: string): boolean {
  return digits(value, 11, 2) <= 23 && digits(value, 14, 2) <= 59 && isValidDate(value);
}

/** The `YYYY-MM-DD` at the start of the value names a day of the calendar. */
function isValidDate(value: string): boolean {
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 2);
  const day = digits(value, 8, 2);
  // Years before 100 stay text, as they always have (JavaScript dates read them as 19xx).
  return year >= 100 && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);
}

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The number written by `length` ASCII digits from `start` (the patterns above made sure they are digits). */
function digits(value: string, start: number, length: number): number {
  let number = 0;
  for (let i = start; i < start + length; i++) number = number * 10 + value.charCodeAt(i) - 48;
  return number;
}
