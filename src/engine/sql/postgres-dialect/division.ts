import { operandsOf } from './operands';
import type { LevelRewrite } from './pass';

/** Operand texts that are intervals for sure; DuckDB's `//` has no interval form. */
const intervalOperands = [
  /^interval\b/i, // interval '1 day'
  /::\s*interval\s*$/i,
  /^(age|make_interval|justify_\w+|to_(days|hours|minutes|seconds|months|years))\s*\(/i,
];
/** Operand texts that are not integers for sure: `/` already divides them exactly, so they stay. */
const fractionalOperands = [
  /^[0-9]*\.[0-9]*(e[+-]?[0-9]+)?$/i, // 2.0, .5
  /^[0-9.]+e[+-]?[0-9]+$/i, // 1e6
  /::\s*(double|real|float\w*|decimal|numeric)\b[^:]*$/i, // x::float8, x::numeric(10, 2)
  /^cast\s*\([\s\S]*\bas\s+(double(\s+precision)?|real|float\w*|decimal|numeric)\s*(\([^()]*\))?\s*\)$/i,
];
const isInterval = (operand: string) => intervalOperands.some((pattern) => pattern.test(operand));
const isFractional = (operand: string) => fractionalOperands.some((pattern) => pattern.test(operand));
/** A divisor that cannot be zero (a number literal other than 0) or is already guarded: no check needed. */
const needsNoCheck = (operand: string) =>
  (/^[0-9]*\.?[0-9]*(e[+-]?[0-9]+)?$/i.test(operand) && /[1-9]/.test(operand.replace(/e.*$/i, ''))) || /^pgx_divisor\s*\(/i.test(operand);

/**
 * Postgres divides integers as integers (7 / 2 = 3, truncating toward zero); DuckDB's `/` always
 * gives a fraction. DuckDB's `//` divides integers the Postgres way and other numbers exactly like
 * `/`, so `/` becomes `//` unless an operand is visibly an interval (which `//` refuses) or visibly
 * not an integer (where both agree). The divisor of a `/` or `%` goes through `pgx_divisor`, which
 * raises Postgres' division by zero where DuckDB answers NULL or Infinity, an interval's too. A
 * division whose operands it cannot delimit is left alone.
 */
export const translateDivision: LevelRewrite = (level, log) => {
  for (let k = 1; k + 1 < level.size; k += 1) {
    const modulo = level.op(k, '%');
    if (!level.op(k, '/') && !modulo) continue;
    const operands = operandsOf(level);
    const start = operands.startOf(k - 1);
    const end = operands.endOf(k + 1);
    if (start === -1 || end === -1) continue;
    const left = level.text(start, k - 1);
    const right = level.text(k + 1, end);
    if (isInterval(right)) continue;
    // An interval is divided by `/` (DuckDB's `//` has no interval form), its divisor checked all the same.
    const operator = modulo || isInterval(left) || isFractional(left) || isFractional(right) ? level.text(k, k) : '//';
    const divisor = needsNoCheck(right) ? right : `pgx_divisor(${right})`;
    // Postgres has no % of doubles; a number literal is an integer or a numeric.
    const dividend = modulo && !/^[0-9.]+$/.test(left) ? `pgx_modulo_of(${left})` : left;
    if (operator === level.text(k, k) && divisor === right && dividend === left) continue;
    if (!level.canReplace(start, end)) continue;
    if (level.replace(start, end, `${dividend} ${operator} ${divisor}`)) log.add('division: integers as integers (/ → //), division by zero raised');
  }
};
