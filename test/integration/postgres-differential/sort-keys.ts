import { canonicalEqual, sortKey, type Canonical } from '../postgres-corpus/canonical';
import { isToken, meaningful, parseTree, splitArguments, wordOf, type SqlNode } from '../../../src/engine/sql/postgres-dialect/token-tree';

/**
 * The result columns a query's final ORDER BY sorts on, when every key is a column position
 * (`ORDER BY 1, 2`) or an output column's name (`ORDER BY country NULLS LAST`); null when it has
 * none or a key is an expression. Rows with equal keys may come in any order, in Postgres as in
 * any engine, so the comparison sorts within such runs.
 */
export function orderKeyColumns(sql: string, names: readonly string[]): number[] | null {
  const top = meaningful(parseTree(sql));
  const at = top.findLastIndex((node, i) => wordOf(node) === 'ORDER' && wordOf(top[i + 1]) === 'BY');
  if (at === -1) return null;
  const clause: SqlNode[] = [];
  for (const node of top.slice(at + 2)) {
    if (['LIMIT', 'OFFSET', 'FETCH'].includes(wordOf(node) ?? '') || isToken(node, 'punct', ';')) break;
    clause.push(node);
  }
  const columns: number[] = [];
  for (const key of splitArguments(clause)) {
    const [first, ...modifiers] = meaningful(key);
    if (!modifiers.every((node) => ['ASC', 'DESC', 'NULLS', 'FIRST', 'LAST'].includes(wordOf(node) ?? ''))) return null;
    const column = first?.type === 'token' && first.token.kind === 'number' ? Number(first.token.text) - 1 : names.indexOf(wordOf(first)?.toLowerCase() ?? '');
    if (!Number.isInteger(column) || column < 0 || column >= names.length) return null;
    columns.push(column);
  }
  return columns;
}

/** The rows with each run of equal sort keys sorted by value, so ties compare in one order. */
export function sortedWithinTies(rows: readonly Canonical[][], keys: readonly number[]): Canonical[][] {
  const out: Canonical[][] = [];
  let run: Canonical[][] = [];
  const flush = () => out.push(...run.sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0)));
  for (const row of rows) {
    if (run.length > 0 && !keys.every((key) => canonicalEqual(run[0]![key]!, row[key]!))) {
      flush();
      run = [];
    }
    run.push(row);
  }
  flush();
  return out;
}
