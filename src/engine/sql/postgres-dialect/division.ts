import { operandsOf } from './operands';
import type { Level } from './level';
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
/** Operands that are numerics for sure: a decimal literal, a cast to numeric, a numeric quotient. */
const numericOperands = [
  /^[0-9]*\.[0-9]*$/, // 2.0, .5
  /::\s*(decimal|numeric)\b[^:]*$/i,
  /^cast\s*\([\s\S]*\bas\s+(decimal|numeric)\s*(\([^()]*\))?\s*\)$/i,
  /^\(*\s*pgx_numeric_div\s*\(/i,
];
/** Operands that are integers for sure, which Postgres divides by a numeric as numerics. */
const integerOperands = [/^[0-9]+$/, /^count\s*\(/i];
const isNumeric = (operand: string) => numericOperands.some((pattern) => pattern.test(operand));
const isExactOperand = (operand: string) => isNumeric(operand) || integerOperands.some((pattern) => pattern.test(operand));
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
    const first = modulo ? -1 : dividendStart(level, start);
    if (first !== -1 && (isNumeric(left) || isNumeric(right)) && isExactOperand(left) && isExactOperand(right)) {
      // Numerics divide exactly, to Postgres' scale (numeric-division-macros.ts); DuckDB would answer a double.
      const chain = numericChain(level, `pgx_numeric_div(${level.text(first, k - 1)}, ${divisor})`, end);
      if (level.canReplace(first, chain.end) && level.replace(first, chain.end, chain.text)) log.add('numeric division: exact, to Postgres scale');
      continue;
    }
    if (operator === level.text(k, k) && divisor === right && dividend === left) continue;
    if (!level.canReplace(start, end)) continue;
    if (level.replace(start, end, `${dividend} ${operator} ${divisor}`)) log.add('division: integers as integers (/ → //), division by zero raised');
  }
};

/**
 * `1 / 3.0 * 3 / 7`: Postgres computes left to right, so the divisions and products after a numeric
 * quotient take it whole; each further exact operand joins the chain. (A product of numerics is
 * exact in DuckDB as it is in Postgres.)
 */
function numericChain(level: Level, first: string, from: number): { text: string; end: number } {
  const operands = operandsOf(level);
  let text = first;
  let end = from;
  // Once an operand of unknown type joins, the rest is DuckDB's arithmetic, its divisors still checked.
  let exact = true;
  while (level.op(end + 1, '/', '*', '%')) {
    const last = operands.endOf(end + 2);
    if (last === -1) break;
    const operand = level.text(end + 2, last);
    const operator = level.text(end + 1, end + 1);
    exact &&= isExactOperand(operand) && operator !== '%';
    const divisor = operator === '*' || needsNoCheck(operand) ? operand : `pgx_divisor(${operand})`;
    if (exact) text = operator === '/' ? `pgx_numeric_div(${text}, ${divisor})` : `(${text} * ${operand})`;
    else text = `${text} ${operator} ${divisor}`;
    end = last;
  }
  return { text, end };
}

/** Where the dividend of a division whose left operand starts at `start` begins: products of exact operands before it belong to it; -1 after another division. */
function dividendStart(level: Level, start: number): number {
  const operands = operandsOf(level);
  let first = start;
  while (level.op(first - 1, '*')) {
    const before = operands.startOf(first - 2);
    if (before === -1 || !isExactOperand(level.text(before, first - 2))) return -1;
    first = before;
  }
  return level.op(first - 1, '/', '%') ? -1 : first;
}
