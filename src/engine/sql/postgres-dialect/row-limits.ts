import type { Level } from './level';
import type { LevelRewrite, RewriteLog } from './pass';
import { meaningful } from './token-tree';

/**
 * `ORDER BY k FETCH FIRST n ROWS WITH TIES` keeps the rows tied with the last one. DuckDB has no
 * WITH TIES; a QUALIFY on the rank over the same keys keeps the same rows. Sort keys given by
 * position cannot be copied into a window and leave the query as written, as does an OFFSET.
 */
function withTies(level: Level, fetch: number, log: RewriteLog): void {
  // The count is optional: `FETCH FIRST ROW WITH TIES` means one.
  const counted = !level.is(fetch + 2, 'ROW', 'ROWS');
  const count = counted ? level.text(fetch + 2, fetch + 2) : '1';
  const rows = counted ? fetch + 3 : fetch + 2;
  if (!level.is(rows, 'ROW', 'ROWS') || !level.is(rows + 1, 'WITH') || !level.is(rows + 2, 'TIES')) return;
  const { orderBy, limitOrOffset, positionalKeys } = level.memoized(sortClauses, sortClausesOf);
  // The nearest ORDER BY before the FETCH (never at the level's start), with no OFFSET or LIMIT between.
  const order = orderBy[fetch]!;
  if (order <= 0 || limitOrOffset[fetch]! > order || !level.canReplace(order, rows + 2)) return;
  if ((positionalKeys.get(order) ?? Number.POSITIVE_INFINITY) < fetch) return;
  const keys = level.text(order + 2, fetch - 1);
  if (level.replace(order, order, `QUALIFY rank() OVER (ORDER BY ${keys}) <= ${count} ORDER`) && level.replace(fetch, rows + 2, '')) {
    log.add('FETCH … WITH TIES → QUALIFY rank()');
  }
}

const sortClauses = {};

/**
 * For each position: the nearest ORDER BY before it and the nearest OFFSET or LIMIT before it
 * (-1 when none), and where each ORDER BY first sorts by a position (`ORDER BY 1`), which cannot be
 * copied into a window. One pass serves every FETCH of the level.
 */
function sortClausesOf(level: Level): { orderBy: number[]; limitOrOffset: number[]; positionalKeys: Map<number, number> } {
  const orderBy: number[] = [-1];
  const limitOrOffset: number[] = [-1];
  const positionalKeys = new Map<number, number>();
  let currentOrder = -1;
  for (let j = 0; j < level.size; j += 1) {
    const startsOrder = j > 0 && level.is(j, 'ORDER') && level.is(j + 1, 'BY');
    if (startsOrder) currentOrder = j;
    if (
      currentOrder >= 0 &&
      j >= currentOrder + 2 &&
      (j === currentOrder + 2 || level.punct(j - 1, ',')) &&
      level.token(j, 'number') &&
      !positionalKeys.has(currentOrder)
    )
      positionalKeys.set(currentOrder, j);
    orderBy.push(startsOrder ? j : orderBy[j]!);
    limitOrOffset.push(level.is(j, 'OFFSET', 'LIMIT') ? j : limitOrOffset[j]!);
  }
  return { orderBy, limitOrOffset, positionalKeys };
}

/** Postgres' TABLESAMPLE takes a percentage; DuckDB reads a bare number as a row count. */
function samplePercentage(level: Level, k: number, log: RewriteLog): void {
  const group = level.group(k + 2);
  if (!group || !level.is(k + 1, 'SYSTEM', 'BERNOULLI')) return;
  const inner = meaningful(group.children);
  if (inner.length !== 1 || inner[0]?.type !== 'token' || inner[0].token.kind !== 'number') return;
  if (level.replace(k + 2, k + 2, `(${inner[0].token.text} PERCENT)`)) log.add('TABLESAMPLE (n) → (n PERCENT)');
}

export const translateRowLimits: LevelRewrite = (level, log) => {
  for (let k = 0; k < level.size; k += 1) {
    if (level.is(k, 'FETCH') && level.is(k + 1, 'FIRST', 'NEXT')) withTies(level, k, log);
    else if (level.is(k, 'TABLESAMPLE')) samplePercentage(level, k, log);
  }
};
