/**
 * The DuckDB type a lake column takes when a source's batch brings values of another type, for
 * sources read as relations (Postgres, files): integers widen to the wider integer, floats and
 * integers to DOUBLE, decimals to a decimal holding both, DATE to TIMESTAMP, TIMESTAMP to
 * TIMESTAMPTZ; nested values that differ become JSON; anything else becomes VARCHAR, which holds
 * every value as text. Columns never narrow.
 */

const signed = ['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT'];
const unsigned = ['UTINYINT', 'USMALLINT', 'UINTEGER', 'UBIGINT', 'UHUGEINT'];
const floats = ['FLOAT', 'DOUBLE'];
const temporal = ['DATE', 'TIMESTAMP', 'TIMESTAMP WITH TIME ZONE'];
const maxDecimalWidth = 38;

interface Decimal {
  width: number;
  scale: number;
}

export function normalizeType(type: string): string {
  const upper = type.trim().toUpperCase();
  if (upper === 'TIMESTAMPTZ') return 'TIMESTAMP WITH TIME ZONE';
  if (upper === 'INT' || upper === 'INT4') return 'INTEGER';
  if (upper === 'INT8') return 'BIGINT';
  if (upper === 'REAL' || upper === 'FLOAT4') return 'FLOAT';
  if (upper === 'FLOAT8') return 'DOUBLE';
  if (upper === 'STRING' || upper === 'TEXT') return 'VARCHAR';
  return upper;
}

/** The narrowest type holding values of both. */
export function widenType(current: string, incoming: string): string {
  const a = normalizeType(current);
  const b = normalizeType(incoming);
  if (a === b) return a;
  if (isNested(a) || isNested(b) || a === 'JSON' || b === 'JSON') return isScalarText(a) || isScalarText(b) ? 'VARCHAR' : 'JSON';
  const integer = widerInteger(a, b);
  if (integer) return integer;
  const decimal = widerDecimal(a, b);
  if (decimal) return decimal;
  if (isNumeric(a) && isNumeric(b)) return 'DOUBLE';
  if (temporal.includes(a) && temporal.includes(b)) return temporal[Math.max(temporal.indexOf(a), temporal.indexOf(b))]!;
  return 'VARCHAR';
}

/**
 * Whether DuckLake changes the column's type in place (a widening promotion it accepts: checked on
 * the pinned version); any other change rewrites the table within the same snapshot.
 */
export function promotesInPlace(from: string, to: string): boolean {
  const a = normalizeType(from);
  const b = normalizeType(to);
  if (signed.includes(a) && signed.includes(b)) return signed.indexOf(b) > signed.indexOf(a);
  if (unsigned.includes(a) && unsigned.includes(b)) return unsigned.indexOf(b) > unsigned.indexOf(a);
  if ((signed.includes(a) || a === 'FLOAT') && b === 'DOUBLE') return true;
  const da = decimalOf(a);
  const db = decimalOf(b);
  if (da && db) return db.scale === da.scale && db.width >= da.width;
  return a === 'DATE' && b === 'TIMESTAMP';
}

/** How a value of `from` becomes `to` in a rewrite or an insert: JSON from nested values, a cast otherwise. */
export function conversion(expression: string, from: string, to: string): string {
  const source = normalizeType(from);
  const target = normalizeType(to);
  if (source === target) return expression;
  if (target === 'JSON' && source !== 'VARCHAR') return `to_json(${expression})`;
  return `CAST(${expression} AS ${target})`;
}

function widerInteger(a: string, b: string): string | undefined {
  const [sa, sb, ua, ub] = [signed.indexOf(a), signed.indexOf(b), unsigned.indexOf(a), unsigned.indexOf(b)];
  if (sa >= 0 && sb >= 0) return signed[Math.max(sa, sb)];
  if (ua >= 0 && ub >= 0) return unsigned[Math.max(ua, ub)];
  // A signed type one step wider than the unsigned one holds both.
  if (sa >= 0 && ub >= 0) return signed[Math.min(signed.length - 1, Math.max(sa, ub + 1))];
  if (ua >= 0 && sb >= 0) return signed[Math.min(signed.length - 1, Math.max(sb, ua + 1))];
  return undefined;
}

function widerDecimal(a: string, b: string): string | undefined {
  const da = decimalOf(a) ?? integerAsDecimal(a);
  const db = decimalOf(b) ?? integerAsDecimal(b);
  if (!da || !db || (!decimalOf(a) && !decimalOf(b))) return undefined;
  const scale = Math.max(da.scale, db.scale);
  const width = Math.max(da.width - da.scale, db.width - db.scale) + scale;
  return width <= maxDecimalWidth ? `DECIMAL(${width},${scale})` : 'DOUBLE';
}

function decimalOf(type: string): Decimal | undefined {
  const match = /^(?:DECIMAL|NUMERIC)\((\d+),\s*(\d+)\)$/.exec(type);
  return match ? { width: Number(match[1]), scale: Number(match[2]) } : undefined;
}

/** Digits an integer type needs, for a decimal that holds it. */
function integerAsDecimal(type: string): Decimal | undefined {
  const digits: Record<string, number> = { TINYINT: 3, SMALLINT: 5, INTEGER: 10, BIGINT: 19, UTINYINT: 3, USMALLINT: 5, UINTEGER: 10, UBIGINT: 20 };
  return digits[type] === undefined ? undefined : { width: digits[type], scale: 0 };
}

function isNumeric(type: string): boolean {
  return signed.includes(type) || unsigned.includes(type) || floats.includes(type) || decimalOf(type) !== undefined;
}

function isNested(type: string): boolean {
  return /^(STRUCT|MAP|UNION)\(/.test(type) || type.endsWith('[]') || /\[\d+\]$/.test(type);
}

function isScalarText(type: string): boolean {
  return type === 'VARCHAR' || type === 'BLOB' || type === 'UUID';
}
