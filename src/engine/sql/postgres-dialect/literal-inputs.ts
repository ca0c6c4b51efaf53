import { postgresError } from '../postgres-errors';
import type { Level } from './level';
import { operandsOf } from './operands';
import { sqlString, stringValue } from './literals';
import type { LevelRewrite, RewriteLog } from './pass';
import { parseArrayText, type ArrayItem } from './pg-array-literal';

/**
 * Text literals read as a type the way Postgres reads them: booleans in every spelling Postgres
 * takes (`on`, `yes`, `t`, unique prefixes…), integers only in integer syntax (DuckDB rounds
 * `'4.2'::int` to 4; Postgres refuses it), and `ANY('{2,4,6}')` as an array. A literal Postgres
 * refuses is refused here with Postgres' error, as Postgres does when it parses the statement.
 */
export const translateLiteralInputs: LevelRewrite = (level, log) => {
  for (let k = 0; k < level.size; k += 1) {
    if (level.token(k, 'number')) {
      readSmallestInteger(level, k, log);
      readRealOperand(level, k, log);
      checkFloatProduct(level, k);
    }
    if (isReal(level, k)) widenReal(level, k, log);
    if (!level.token(k, 'string')) continue;
    const text = stringValue(level.text(k, k));
    if (text === null) continue;
    // `'{1,2}'::int[]` is array text, read by type-names.ts.
    const scalar = !level.group(k + 3, '[');
    const type = level.op(k + 1, '::') && scalar ? level.word(k + 2) : level.is(k + 1, 'AS') && k === 0 && level.size === 3 ? level.word(k + 2) : null;
    const read = type === null ? readOperand(level, k, text) : readLiteral(text, type);
    if (read !== null && level.replace(k, k, read)) log.add('text literals read in Postgres input syntax');
    else if (type === null && isArrayOperand(level, k) && text.startsWith('{')) {
      const items = parseArrayText(text);
      if (items !== null && level.replace(k, k, listLiteral(items))) log.add("ANY('{…}') → a list");
    }
  }
};

/** `ANY('…')`, `ALL('…')`: the string is the group's only content. */
function isArrayOperand(level: Level, k: number): boolean {
  return k === 0 && level.size === 1;
}

/** Array text's items as a list literal, numbers unquoted (Postgres gives them the other side's type). */
export function listLiteral(items: readonly ArrayItem[]): string {
  const numeric = items.every((item) => item === null || (typeof item === 'string' && /^[+-]?[0-9]+(\.[0-9]+)?$/.test(item)));
  return `[${items.map((item) => (item === null ? 'NULL' : Array.isArray(item) ? listLiteral(item) : numeric ? item : sqlString(item))).join(', ')}]`;
}

const integerRanges: Readonly<Record<string, [string, bigint]>> = {
  SMALLINT: ['smallint', 2n ** 15n],
  INT2: ['smallint', 2n ** 15n],
  INT: ['integer', 2n ** 31n],
  INTEGER: ['integer', 2n ** 31n],
  INT4: ['integer', 2n ** 31n],
  BIGINT: ['bigint', 2n ** 63n],
  INT8: ['bigint', 2n ** 63n],
};
const booleanWords: readonly [string, boolean][] = [
  ['true', true],
  ['false', false],
  ['yes', true],
  ['no', false],
];

const floatTypes: Readonly<Record<string, string>> = {
  FLOAT8: 'double precision',
  DOUBLE: 'double precision',
  FLOAT: 'double precision',
  FLOAT4: 'real',
  REAL: 'real',
};

function readLiteral(text: string, type: string): string | null {
  if (type === 'BOOLEAN' || type === 'BOOL') return sqlString(String(readBoolean(text)));
  const float = floatTypes[type];
  if (float !== undefined) {
    // Postgres refuses a number its type cannot hold; DuckDB makes it infinite.
    const value = Number(text.trim());
    if (!Number.isNaN(value) && !Number.isFinite(value) && !/inf/i.test(text)) throw postgresError('22003', `"${text}" is out of range for type ${float}`);
    // …and a number too small for it to hold, which would become zero.
    const underflows = (float === 'real' ? Math.fround(value) : value) === 0 && /^\s*[+-]?(0*[1-9]|0*\.0*[1-9])/.test(text);
    if (underflows) throw postgresError('22003', `"${text}" is out of range for type ${float}`);
    if (float === 'real' && Number.isFinite(value) && Math.abs(value) > 3.4028234663852886e38)
      throw postgresError('22003', `"${text}" is out of range for type real`);
    return null;
  }
  const range = integerRanges[type];
  if (!range) return null;
  const trimmed = text.trim();
  if (!/^[+-]?[0-9]+$/.test(trimmed)) throw postgresError('22P02', `invalid input syntax for type ${range[0]}: "${text}"`);
  const value = BigInt(trimmed);
  if (value < -range[1] || value >= range[1]) throw postgresError('22003', `value "${text}" is out of range for type ${range[0]}`);
  return null;
}

const arithmetic = ['+', '-', '*', '/', '%'];
const typedLiteralWords = new Set([
  'DATE',
  'TIME',
  'TIMESTAMP',
  'TIMESTAMPTZ',
  'INTERVAL',
  'ZONE',
  'JSON',
  'JSONB',
  'NUMERIC',
  'DECIMAL',
  'INT',
  'INTEGER',
  'BIGINT',
  'SMALLINT',
  'REAL',
  'FLOAT',
  'PRECISION',
  'TEXT',
  'VARCHAR',
  'BOOLEAN',
  'BOOL',
  'UUID',
  'BYTEA',
]);

/**
 * `1 + 'a'`: Postgres gives an untyped text literal the type of the number on the operator's other
 * side (and refuses text that is no number); DuckDB cannot choose.
 */
function readOperand(level: Level, k: number, text: string): string | null {
  // `date '2024-01-15' + 1`: a typed literal has its type.
  if (typedLiteralWords.has(level.word(k - 1) ?? '')) return null;
  const before = level.op(k - 1, ...arithmetic) && level.token(k - 2, 'number') && !level.op(k - 3, ...arithmetic, '^');
  const after = level.op(k + 1, ...arithmetic) && level.token(k + 2, 'number') && !level.op(k + 3, '*', '/', '%', '^') && !level.op(k - 1, ...arithmetic);
  if (!before && !after) return null;
  const number = level.text(before ? k - 2 : k + 2, before ? k - 2 : k + 2);
  if (/^[0-9]+$/.test(number)) {
    readLiteral(text, 'INTEGER');
    return text.trim();
  }
  if (!/^\s*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)(e[+-]?[0-9]+)?\s*$/i.test(text)) throw postgresError('22P02', `invalid input syntax for type numeric: "${text}"`);
  return `(${text.trim()})`;
}

/**
 * `-2147483648` is an integer in Postgres, whose grammar folds the sign into the number; DuckDB
 * negates 2147483648, a bigint, so `-2147483648 * -1` would not overflow.
 */
function readSmallestInteger(level: Level, k: number, log: RewriteLog): void {
  const type = level.text(k, k) === '2147483648' ? 'INTEGER' : level.text(k, k) === '9223372036854775808' ? 'BIGINT' : null;
  if (type === null || !level.op(k - 1, '-')) return;
  const unary = k === 1 || level.token(k - 2, 'op') || level.punct(k - 2, ',') || (level.word(k - 2) !== null && !level.is(k - 2, 'END'));
  if (unary && level.replace(k - 1, k, `CAST(-${level.text(k, k)} AS ${type})`)) log.add('text literals read in Postgres input syntax');
}

const comparisons = ['=', '<>', '!=', '<', '>', '<=', '>=', ...arithmetic];
/** `x::real` or `x::float4` (its last words). */
const isReal = (level: Level, k: number) => level.is(k, 'REAL', 'FLOAT4') && level.op(k - 1, '::');

/**
 * `x::real = 0.1`: Postgres compares a real with a numeric as two doubles (0.1 as a real is not 0.1);
 * DuckDB as two reals. The numeric literal becomes a double, and so the comparison.
 */
function readRealOperand(level: Level, k: number, log: RewriteLog): void {
  if (!/[.e]/i.test(level.text(k, k))) return;
  const real = (level.op(k - 1, ...comparisons) && isReal(level, k - 2)) || (level.op(k + 1, ...comparisons) && isReal(level, k + 4) && level.op(k + 3, '::'));
  if (real && level.replace(k, k, `CAST(${level.text(k, k)} AS DOUBLE)`)) log.add('text literals read in Postgres input syntax');
}

/**
 * `a::real / 3`: Postgres computes a real with an integer or a numeric as two doubles (float48
 * operators), a real with a real as reals; DuckDB keeps a real. The real beside another type is
 * widened to a double, as Postgres widens it.
 */
function widenReal(level: Level, k: number, log: RewriteLog): void {
  const operands = operandsOf(level);
  const after = level.op(k + 1, '+', '-', '*', '/', '%') ? operands.endOf(k + 2) : -1;
  const start = operands.startOf(k);
  const before = start >= 2 && level.op(start - 1, '+', '-', '*', '/', '%') ? start - 2 : -1;
  const widens = (after !== -1 && !isReal(level, after)) || (before !== -1 && !isReal(level, before));
  if (widens && level.replace(k, k, `${level.text(k, k)}::DOUBLE`)) log.add('real beside another number: a double');
}

/**
 * `1e308::float8 * 10`: arithmetic of a double that overflows raises 22003 in Postgres; DuckDB makes
 * it infinite. Read where the statement shows it: a number cast to a double times (or plus) a number.
 */
function checkFloatProduct(level: Level, k: number): void {
  const type = level.op(k + 1, '::') ? level.word(k + 2) : null;
  if (type === null || !['FLOAT8', 'FLOAT', 'DOUBLE'].includes(type)) return;
  const operator = level.is(k + 2, 'DOUBLE') && level.is(k + 3, 'PRECISION') ? k + 4 : k + 3;
  if (!level.op(operator, '*', '+', '-') || !level.token(operator + 1, 'number') || level.op(k - 1, '*', '/', '^', '-')) return;
  const [a, b] = [Number(level.text(k, k)), Number(level.text(operator + 1, operator + 1))];
  const result = level.op(operator, '*') ? a * b : level.op(operator, '+') ? a + b : a - b;
  if (Number.isFinite(a) && Number.isFinite(b) && !Number.isFinite(result)) throw postgresError('22003', 'value out of range: overflow');
}

function readBoolean(text: string): boolean {
  const word = text.trim().toLowerCase();
  if (word === 'on' || word === '1') return true;
  if (word === 'off' || word === 'of' || word === '0') return false;
  const match = word.length > 0 ? booleanWords.find(([full]) => full.startsWith(word)) : undefined;
  if (!match) throw postgresError('22P02', `invalid input syntax for type boolean: "${text}"`);
  return match[1];
}
