import type { Level } from './level';
import { operandsOf } from './operands';
import type { LevelRewrite, RewriteLog } from './pass';

/**
 * Postgres' numeric operators DuckDB lacks: `|/ x` (square root), `||/ x` (cube root), `a # b`
 * (bitwise xor); and `a ^ b`, which raises where Postgres does (zero to a negative power, a negative
 * number to a fractional one), left to right (`2 ^ 3 ^ 2` is 64).
 */
export const translateNumericOperators: LevelRewrite = (level, log) => {
  const operands = operandsOf(level);
  for (let k = 0; k + 1 < level.size; k += 1) {
    if (level.op(k, '^') && k > 0) {
      k = powerChain(level, k, log);
    } else if (level.op(k, '|/', '||/')) {
      // A prefix operator takes what arithmetic binds to its right: `|/ 16 + 9` is the root of 25.
      const end = operands.rightOf(k);
      if (end === -1 || !level.canReplace(k, end)) continue;
      if (level.replace(k, end, `${level.op(k, '|/') ? 'sqrt' : 'cbrt'}(${level.text(k + 1, end)})`)) log.add('|/ and ||/ → sqrt and cbrt');
    } else if (level.op(k, '#') && k > 0) {
      const start = operands.leftOf(k);
      const end = operands.rightOf(k);
      if (start === -1 || end === -1 || !level.canReplace(start, end)) continue;
      if (level.replace(start, end, `xor(${level.text(start, k - 1)}, ${level.text(k + 1, end)})`)) log.add('# → xor');
    }
  }
};

/** `a ^ b ^ c` from the operator at `k` as nested pgx_power calls; the position its chain ends at. */
function powerChain(level: Level, k: number, log: RewriteLog): number {
  const operands = operandsOf(level);
  let start = operands.startOf(k - 1);
  if (start === -1) return k;
  // A sign binds tighter than `^` in Postgres: `-2 ^ 2` is 4.
  if (
    level.op(start - 1, '-', '+') &&
    (start === 1 || level.token(start - 2, 'op') || level.punct(start - 2, ',') || (level.word(start - 2) !== null && !level.is(start - 2, 'END')))
  )
    start -= 1;
  let sql = level.text(start, k - 1);
  let end = k - 1;
  for (let at = k; level.op(at, '^'); at = end + 1) {
    const right = operands.endOf(at + 1);
    if (right === -1) break;
    sql = `pgx_power(${sql}, ${level.text(at + 1, right)})`;
    end = right;
  }
  if (end === k - 1 || !level.canReplace(start, end)) return k;
  if (level.replace(start, end, sql)) log.add('^ → pgx_power');
  return end;
}
