import { lakeAlias } from '../workspace-engine';
import { cteNamesOf, tableRefName } from './check-query';
import { isExactNumber, type AstNode, type AstValue } from './parse-query';

/**
 * The parse tree as the read connections run it. Their default catalog is not the lake (every name a
 * query binds would otherwise be looked up in DuckLake's catalog first, at the cost of reading it), so
 * each reference to a lake table is qualified with the lake's name; a live one that `directScanOf`
 * knows is swapped for the table reference it returns (a subquery), keeping the reference's alias,
 * column aliases and sample so that the rest of the query binds exactly as before. DESCRIBE and
 * SUMMARIZE keep the table itself: they show its constraints. `readsLake` when a reference stays
 * with DuckLake.
 */
export function planTableScans(root: AstNode, directScanOf: (qualifiedName: string) => AstNode | undefined): { tree: AstNode; readsLake: boolean } {
  const cteNames = cteNamesOf(root);
  let readsLake = false;
  const rewrite = (value: AstValue, describing: boolean): AstValue => {
    if (Array.isArray(value)) return value.map((item) => rewrite(item, describing));
    if (value === null || typeof value !== 'object' || isExactNumber(value)) return value;
    if (value.type === 'BASE_TABLE') {
      const name = tableRefName(value, cteNames);
      if (!name) return value;
      const direct = name.historical || describing ? undefined : directScanOf(name.qualified);
      if (!direct) {
        readsLake = true;
        return { ...value, catalog_name: lakeAlias };
      }
      return { ...direct, alias: value.alias || String(value.table_name), column_name_alias: value.column_name_alias ?? [], sample: value.sample ?? null };
    }
    const copy: AstNode = {};
    for (const [key, child] of Object.entries(value)) copy[key] = rewrite(child, describing || value.type === 'SHOW_REF');
    return copy;
  };
  const tree = rewrite(root, false) as AstNode;
  return { tree, readsLake };
}
