import { operandsOf } from './operands';
import type { LevelRewrite } from './pass';

/** Postgres' numeric operators DuckDB lacks: `|/ x` (square root), `||/ x` (cube root), `a # b` (bitwise xor). */
export const translateNumericOperators: LevelRewrite = (level, log) => {
  const operands = operandsOf(level);
  for (let k = 0; k + 1 < level.size; k += 1) {
    if (level.op(k, '|/', '||/')) {
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
