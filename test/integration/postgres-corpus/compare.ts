import { canonicalEqual, sortKey, type Canonical } from './canonical';
import { parseTree, wordOf } from '../../../src/engine/sql/postgres-dialect/token-tree';

/**
 * Whether a query fixes its row order: an ORDER BY outside every bracket, that is, on the final
 * result rather than in a window, an aggregate or a subquery.
 */
export function ordersRows(sql: string): boolean {
  const words = parseTree(sql)
    .map(wordOf)
    .filter((word) => word !== null);
  return words.some((word, i) => word === 'ORDER' && words[i + 1] === 'BY');
}

/** Null when the results match, otherwise what differs. Unordered results are compared as sorted multisets. */
export function compareResults(expected: Canonical[][], actual: Canonical[][], ordered: boolean): string | null {
  const sort = (rows: Canonical[][]) => (ordered ? rows : [...rows].sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0)));
  const left = sort(expected);
  const right = sort(actual);
  if (left.length !== right.length) return `${left.length} rows from Postgres, ${right.length} from Oxbow\n${show(left, right)}`;
  const row = left.findIndex((item, i) => item.length !== right[i]!.length || !item.every((cell, j) => canonicalEqual(cell, right[i]![j]!)));
  return row === -1 ? null : `row ${row + 1}${ordered ? '' : ' (after sorting)'} differs\n${show(left, right)}`;
}

function show(expected: Canonical[][], actual: Canonical[][]): string {
  const lines = (rows: Canonical[][]) =>
    rows
      .slice(0, 20)
      .map((row) => `  ${JSON.stringify(row)}`)
      .join('\n');
  return `postgres:\n${lines(expected)}\noxbow:\n${lines(actual)}`;
}
