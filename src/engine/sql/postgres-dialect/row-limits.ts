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
  let order = fetch - 1;
  while (order > 0 && !(level.is(order, 'ORDER') && level.is(order + 1, 'BY'))) {
    if (level.is(order, 'OFFSET', 'LIMIT')) return;
    order -= 1;
  }
  if (order <= 0) return;
  for (let j = order + 2; j < fetch; j += 1) {
    if ((j === order + 2 || level.punct(j - 1, ',')) && level.token(j, 'number')) return;
  }
  const keys = level.text(order + 2, fetch - 1);
  if (level.replace(order, order, `QUALIFY rank() OVER (ORDER BY ${keys}) <= ${count} ORDER`) && level.replace(fetch, rows + 2, '')) {
    log.add('FETCH … WITH TIES → QUALIFY rank()');
  }
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
