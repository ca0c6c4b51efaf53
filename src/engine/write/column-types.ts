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
  if (a === b) return a;
  const pair = new Set([a, b]);
  if (pair.has('VARCHAR')) return 'VARCHAR';
  if (pair.has('JSON')) return 'JSON';
  if (pair.has('BIGINT') && pair.has('DOUBLE')) return 'DOUBLE';
  if (pair.has('DATE') && pair.has('TIMESTAMPTZ')) return 'TIMESTAMPTZ';
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

// The offset is optional: a timestamp without one is UTC (the engine runs in UTC).
function isValidTimestamp(value: string): boolean {
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  const hour = Number(value.slice(11, 13));
  const minute = Number(value.slice(14, 16));
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && isValidDate(value.slice(0, 10));
}

function isValidDate(value: string): boolean {
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
