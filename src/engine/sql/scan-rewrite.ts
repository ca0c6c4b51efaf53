import { lakeAlias } from '../catalog-names';
import { cteNamesOf, tableRefName } from './check-query';
import { isExactNumber, type AstNode, type AstValue } from './parse-query';

/** The SQL whose parse tree gives `planTableScans` the shape of a subquery over a table, read at `snapshot`. */
export function tableSubquerySql(snapshot: number): string {
  return `SELECT * FROM (SELECT * FROM ${lakeAlias}.main.t AT (VERSION => ${Math.trunc(snapshot)})) AS t`;
}

/**
 * The parse tree as the read connections run it. Each reference to a lake table becomes a subquery:
 * one over the table's file when `directScanOf` knows one, else `SELECT *` of the table under the
 * lake's name. The subquery keeps the reference's alias and column aliases, so the rest of the query
 * binds as before, but offers only the table's own columns: DuckLake's virtual ones (`filename` holds
 * the server's path) and those of the files stay out of reach. The lake's name is spelt out because
 * the read connections' default catalog is not the lake: with it, every function and type a query
 * names would be looked up in DuckLake's catalog first, at the cost of reading it. DESCRIBE and
 * SUMMARIZE keep the table itself, which shows its constraints. `readsLake` when a reference stays
 * with DuckLake. With `pinnedSnapshot` (an `AT` clause), the live references DuckLake reads are read
 * at the snapshot the direct scans were planned at, so that the query sees one state of the lake.
 */
export function planTableScans(
  root: AstNode,
  shapes: { tableSubquery: AstNode; pinnedSnapshot?: AstNode },
  directScanOf: (qualifiedName: string) => AstNode | undefined,
): { tree: AstNode; readsLake: boolean } {
  const { tableSubquery, pinnedSnapshot } = shapes;
  const cteNames = cteNamesOf(root);
  let readsLake = false;
  const rewrite = (value: AstValue, describing: boolean): AstValue => {
    if (Array.isArray(value)) return value.map((item) => rewrite(item, describing));
    if (value === null || typeof value !== 'object' || isExactNumber(value)) return value;
    if (value.type === 'BASE_TABLE') {
      const name = tableRefName(value, cteNames);
      if (!name) return value;
      const direct = name.historical || describing ? undefined : directScanOf(name.qualified);
      const reference = { alias: value.alias || String(value.table_name), column_name_alias: value.column_name_alias ?? [] };
      if (direct) return { ...direct, ...reference, sample: value.sample ?? null };
      readsLake = true;
      const table: AstNode = { ...value, catalog_name: lakeAlias };
      if (describing) return table;
      if (pinnedSnapshot && !name.historical) table.at_clause = pinnedSnapshot;
      return { ...tableSubquery, ...reference, subquery: withFromTable(tableSubquery.subquery as AstNode, { ...table, alias: '', column_name_alias: [] }) };
    }
    const copy: AstNode = {};
    for (const [key, child] of Object.entries(value)) copy[key] = rewrite(child, describing || value.type === 'SHOW_REF');
    return copy;
  };
  const tree = rewrite(root, false) as AstNode;
  return { tree, readsLake };
}

/** The subquery statement `{node: SELECT * FROM …}` reading from `table`. */
function withFromTable(statement: AstNode, table: AstNode): AstNode {
  const node = statement.node as AstNode;
  return { ...statement, node: { ...node, from_table: table } };
}
