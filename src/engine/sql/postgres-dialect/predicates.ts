import { Level } from './level';
import { operandsOf } from './operands';
import type { LevelRewrite, RewriteLog } from './pass';
import { renderTrimmed, splitArguments } from './token-tree';

/** `x BETWEEN SYMMETRIC a AND b` orders its bounds; DuckDB only knows the plain form. */
function betweenSymmetric(level: Level, k: number, log: RewriteLog): void {
  const symmetric = level.is(k + 1, 'SYMMETRIC');
  const and = level.memoized(nextAnds, andsAfter)[k + 2] ?? level.size;
  const end = operandsOf(level).rightOf(and);
  if (and >= level.size || and === k + 2 || end === -1 || !level.canReplace(k, end)) return;
  const low = level.text(k + 2, and - 1);
  const high = level.text(and + 1, end);
  const bounds = symmetric ? `least(${low}, ${high}) AND greatest(${low}, ${high})` : `${low} AND ${high}`;
  if (level.replace(k, end, `BETWEEN ${bounds}`)) log.add('BETWEEN SYMMETRIC → least / greatest bounds');
}

const nextAnds = {};

/** For each position, the first AND at or after it (the level's size when none): one pass for every BETWEEN. */
function andsAfter(level: Level): number[] {
  const next: number[] = new Array<number>(level.size + 1);
  next[level.size] = level.size;
  for (let j = level.size - 1; j >= 0; j -= 1) next[j] = level.is(j, 'AND') ? j : next[j + 1]!;
  return next;
}

const intervalText = /^interval\b|::\s*interval$/i;

/**
 * `(s1, e1) OVERLAPS (s2, e2)` with Postgres' rules: each period's ends may come in either order
 * (or be a start and an interval), periods are half-open, and equal starts always overlap.
 */
function overlaps(level: Level, k: number, log: RewriteLog): void {
  const left = level.group(k - 1);
  const right = level.group(k + 1);
  if (!left || !right) return;
  const periods = [left, right].map((group) => splitArguments(group.children).map(renderTrimmed));
  if (!periods.every((args) => args.length === 2)) return;
  const [[s1, e1], [s2, e2]] = periods.map(([start, end]) => {
    if (intervalText.test(end!)) return [start!, `(${start}) + (${end})`];
    return [`least(${start}, ${end})`, `greatest(${start}, ${end})`];
  }) as [[string, string], [string, string]];
  const sql = `(CASE WHEN ${s1} > ${s2} THEN ${s1} < ${e2} WHEN ${s1} < ${s2} THEN ${s2} < ${e1} ELSE ${s1} = ${s2} END)`;
  if (level.replace(k - 1, k + 1, sql)) log.add('OVERLAPS → comparisons');
}

/** Words that end a WHERE clause at its level. */
const afterWhere = new Set(['GROUP', 'HAVING', 'WINDOW', 'QUALIFY', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH', 'UNION', 'INTERSECT', 'EXCEPT', 'RETURNING']);

/**
 * `WHERE total`: Postgres wants a boolean condition and refuses any other type; DuckDB casts. A
 * condition that is one operand (a column, a call, a CASE) goes through pgx_where, which is the
 * operand itself when it is a boolean; a comparison or any other operator is a boolean already.
 */
function whereCondition(level: Level, k: number, log: RewriteLog): void {
  let end = k + 1;
  while (end + 1 < level.size && !afterWhere.has(level.word(end + 1) ?? '') && !level.punct(end + 1, ';')) {
    end += 1;
    // An operator or a predicate's word: a condition of its own making, no single operand.
    if (level.token(end, 'op') && !level.op(end, '::', '.')) return;
    if (level.is(end, 'AND', 'OR', 'IS', 'IN', 'LIKE', 'ILIKE', 'BETWEEN', 'SIMILAR', 'ISNULL', 'NOTNULL')) return;
  }
  if (level.is(k + 1, 'NOT', 'EXISTS', 'TRUE', 'FALSE', 'NULL') || /^pgx_where\s*\(/i.test(level.text(k + 1, k + 1))) return;
  if (operandsOf(level).endOf(k + 1) !== end || !level.canReplace(k + 1, end)) return;
  if (level.replace(k + 1, end, `pgx_where(${level.text(k + 1, end)})`)) log.add('WHERE takes a boolean');
}

export const translatePredicates: LevelRewrite = (level, log) => {
  for (let k = 0; k < level.size; k += 1) {
    if (level.is(k, 'BETWEEN') && level.is(k + 1, 'SYMMETRIC', 'ASYMMETRIC')) betweenSymmetric(level, k, log);
    else if (level.is(k, 'OVERLAPS')) overlaps(level, k, log);
    // A WHERE that opens its bracket is an aggregate's FILTER.
    else if (level.is(k, 'WHERE') && k > 0) whereCondition(level, k, log);
  }
};
