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
const keepsSlash = (operand: string) => [...intervalOperands, ...fractionalOperands].some((pattern) => pattern.test(operand));

/**
 * Postgres divides integers as integers (7 / 2 = 3, truncating toward zero); DuckDB's `/` always
 * gives a fraction. DuckDB's `//` divides integers the Postgres way and other numbers exactly like
 * `/`, so `/` becomes `//` unless an operand is visibly an interval (which `//` refuses) or visibly
 * not an integer (where both agree). A division whose operands it cannot delimit stays as written.
 */
export const translateDivision: LevelRewrite = (level, log) => {
  for (let k = 1; k + 1 < level.size; k += 1) {
    if (!level.op(k, '/')) continue;
    const operands = operandsOf(level);
    const start = operands.startOf(k - 1);
    const end = operands.endOf(k + 1);
    if (start === -1 || end === -1) continue;
    const left = level.text(start, k - 1);
    const right = level.text(k + 1, end);
    if (keepsSlash(left) || keepsSlash(right)) continue;
    if (level.replace(k, k, '//')) log.add('integer division: / → //');
  }
};
