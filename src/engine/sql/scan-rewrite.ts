import { lakeAlias } from '../catalog-names';
import type { AttachedTable } from '../live/live-sources';
import { statementJson, type AstNode, type AstValue } from './parse-query';
import type { StatementFacts } from './statement-facts';

/** The SQL whose parse tree gives `planTableScans` the shape of a subquery over a table, read at `snapshot`. */
export function tableSubquerySql(snapshot: number): string {
  return `SELECT * FROM (SELECT * FROM ${lakeAlias}.main.t AT (VERSION => ${Math.trunc(snapshot)})) AS t`;
}

export interface ScanShapes {
  /** A subquery over a lake table (see tableSubquerySql). */
  tableSubquery: AstNode;
  /** With it, the live references DuckLake reads are read at this `AT` clause's snapshot. */
  pinnedSnapshot?: AstNode;
}

/**
 * The statement as the read connections run it, as the JSON `json_deserialize_sql` reads.
 *
 * Each reference to a lake table becomes a subquery: one over the table's file when `directScanOf`
 * knows one, else `SELECT *` of the table under the lake's name. The subquery keeps the reference's
 * alias and column aliases, so the rest of the query binds as before, but offers only the table's
 * own columns: DuckLake's virtual ones (`filename` holds the server's path, `snapshot_id`, `rowid`…)
 * and those of the files stay out of reach, in every form of statement, DESCRIBE and SUMMARIZE
 * included. The lake's name is spelt out because the read connections' default catalog is not the
 * lake: with it, every function and type a query names would be looked up in DuckLake's catalog
 * first, at the cost of reading it.
 *
 * Each CTE runs under a name of its own (see CteBinding.runName), its references keeping the name
 * they were written with as their alias: whatever the scoping, no name left bare reaches a catalog.
 *
 * A live connection's table (`attachedOf`) becomes a subquery of its attached source's table, which
 * offers that table's own columns only, like any other.
 *
 * `readsLake` when a reference stays with DuckLake. The tree is changed in place only while it is
 * written out, and restored before this returns: the cached analysis stays as it was.
 */
export function planTableScans(
  root: AstNode,
  facts: StatementFacts,
  shapes: ScanShapes | undefined,
  directScanOf: (qualifiedName: string) => AstNode | undefined,
  attachedOf: (qualifiedName: string) => AttachedTable | undefined = () => undefined,
): { json: string; readsLake: boolean } {
  const undo: { target: AstNode | AstValue[]; key: string | number; value: AstValue }[] = [];
  const set = (target: AstNode | AstValue[], key: string | number, value: AstValue) => {
    const slots = target as Record<string | number, AstValue>;
    undo.push({ target, key, value: slots[key]! });
    slots[key] = value;
  };
  let readsLake = false;
  try {
    for (const binding of facts.ctes) {
      set(binding.entry, 'key', binding.runName);
      if (binding.recursiveNode) set(binding.recursiveNode, 'cte_name', binding.runName);
    }
    for (const { node, slot, binding } of facts.cteReferences) {
      set(slot.parent, slot.key, { ...node, table_name: binding.runName, alias: node.alias || String(node.table_name) });
    }
    for (const { node, slot, qualified, historical } of facts.tables) {
      if (!shapes) throw new Error('a lake table reference needs the scan shapes');
      const attached = attachedOf(qualified);
      if (attached) {
        set(slot.parent, slot.key, attachedSubquery(node, shapes, attached));
        continue;
      }
      const direct = historical ? undefined : directScanOf(qualified);
      if (!direct) readsLake = true;
      set(slot.parent, slot.key, direct ? { ...direct, ...referenceOf(node), sample: node.sample ?? null } : lakeSubquery(node, shapes));
    }
    // A table referenced without an alias is known by its name alone once it is a subquery: a column
    // the query qualifies with its schema (`shop.orders.id`, as Postgres allows) is qualified by the table only.
    const unaliased = facts.schemaQualifiedColumns.length === 0 ? new Set<string>() : unaliasedTables(facts);
    for (const node of facts.schemaQualifiedColumns) {
      const [schema, table, ...rest] = node.column_names as string[];
      if (unaliased.has(`${schema!.toLowerCase()}.${table!.toLowerCase()}`)) set(node, 'column_names', [table!, ...rest]);
    }
    return { json: statementJson(root), readsLake };
  } finally {
    for (let index = undo.length - 1; index >= 0; index -= 1) {
      const { target, key, value } = undo[index]!;
      (target as Record<string | number, AstValue>)[key] = value;
    }
  }
}

/** `schema.table` of each table the statement names without an alias. */
function unaliasedTables(facts: StatementFacts): Set<string> {
  return new Set(facts.tables.filter(({ node }) => !node.alias).map(({ schema, table }) => `${schema || 'main'}.${table}`));
}

function attachedSubquery(node: AstNode, { tableSubquery }: ScanShapes, attached: AttachedTable): AstNode {
  const table: AstNode = {
    ...node,
    catalog_name: attached.catalog,
    schema_name: attached.schema,
    table_name: attached.table,
    alias: '',
    column_name_alias: [],
    at_clause: null,
  };
  const statement = tableSubquery.subquery as AstNode;
  const subquery = { ...statement, node: { ...(statement.node as AstNode), from_table: table } };
  return { ...tableSubquery, ...referenceOf(node), subquery };
}

/** What the rest of the query knows a table reference by. */
function referenceOf(node: AstNode): AstNode {
  return { alias: node.alias || String(node.table_name), column_name_alias: node.column_name_alias ?? [] };
}

function lakeSubquery(node: AstNode, { tableSubquery, pinnedSnapshot }: ScanShapes): AstNode {
  const historical = node.at_clause !== null && node.at_clause !== undefined;
  const table: AstNode = { ...node, catalog_name: lakeAlias, alias: '', column_name_alias: [] };
  if (pinnedSnapshot && !historical) table.at_clause = pinnedSnapshot;
  const statement = tableSubquery.subquery as AstNode;
  const subquery = { ...statement, node: { ...(statement.node as AstNode), from_table: table } };
  return { ...tableSubquery, ...referenceOf(node), subquery };
}
