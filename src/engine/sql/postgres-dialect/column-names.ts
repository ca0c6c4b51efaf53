import { itemName, selectItems } from './figure-name';
import type { Level } from './level';
import { applyEverywhere, RewriteLog, type LevelRewrite } from './pass';
import { fragment, parseTree, render, splitArguments } from './token-tree';

export interface NamedColumns {
  sql: string;
  /** Whether any name or VALUES list was written. */
  named: boolean;
}

/**
 * Gives every SELECT-list item, at every level (subqueries and CTEs included, so that a star over
 * them sees the same names), the name Postgres gives it, as an explicit alias computed from the
 * statement as the user wrote it: DuckDB would name it after its expression text, which after
 * translation is not even the user's. Items that are plain column references, and items with an
 * alias, are left as they are: DuckDB names those the same way. VALUES lists get Postgres' column
 * names (`column1`, `column2`, …) instead of DuckDB's (`col0`, …).
 */
export function nameResultColumns(sql: string): NamedColumns {
  const log = new RewriteLog();
  const nodes = applyEverywhere(parseTree(sql), nameLevel, log);
  return log.list().length === 0 ? { sql, named: false } : { sql: render(nodes), named: true };
}

const nameLevel: LevelRewrite = (level, log) => {
  for (let k = 0; k < level.size; k += 1) {
    if (level.is(k, 'SELECT')) nameSelectList(level, k, log);
    else if (level.is(k, 'VALUES') && startsQueryTerm(level, k)) nameValues(level, k, log);
  }
};

function nameSelectList(level: Level, k: number, log: RewriteLog): void {
  for (const item of selectItems(level, k)) {
    const named = itemName(level, item.from, item.to);
    if (named === null || named.alias || named.column) continue;
    const alias = fragment(` AS ${quoteIdentifier(named.name)}`);
    if (level.replace(item.to, item.to, [level.node(item.to)!, ...alias])) log.add('result column names: Postgres rules');
  }
}

/** VALUES that is a query of its own: a statement, a subquery, a CTE's body or a set operation's term. */
function startsQueryTerm(level: Level, k: number): boolean {
  return k === 0 || level.is(k - 1, 'UNION', 'INTERSECT', 'EXCEPT', 'ALL') || (level.is(k - 1, 'DISTINCT') && level.is(k - 2, 'UNION', 'INTERSECT', 'EXCEPT'));
}

/** `VALUES (…), (…)` → `SELECT * FROM (VALUES (…), (…)) AS "*VALUES*"(column1, …)`. */
function nameValues(level: Level, k: number, log: RewriteLog): void {
  const first = level.group(k + 1);
  if (!first) return;
  let last = k + 1;
  while (level.punct(last + 1, ',') && level.group(last + 2)) last += 2;
  const width = splitArguments(first.children).length;
  if (width === 0) return;
  const names = Array.from({ length: width }, (_, i) => `column${i + 1}`).join(', ');
  if (level.replace(k, last, `SELECT * FROM (${level.text(k, last)}) AS "*VALUES*"(${names})`)) log.add('result column names: Postgres rules');
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
