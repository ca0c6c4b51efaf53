import type { CteBinding } from './cte-scope';
import { checkConditions, checkJoinedTables, checkNesting } from './input-limits';
import type { AstNode, AstValue } from './parse-query';
import { checkNodePolicy } from './query-policy';
import { walkStatement, type Slot, type WalkScope } from './statement-walk';

/** The columns a query names, as far as its text says: every column when it selects `*`. */
export interface ReferencedColumns {
  all: boolean;
  names: Set<string>;
}

/** A table reference that names no CTE in its scope: it must be one of the workspace's lake tables. */
export interface TableReference {
  node: AstNode;
  slot: Slot;
  /** Lower case, empty when not written. */
  catalog: string;
  schema: string;
  table: string;
  /** `schema.table`, the schema `main` when none is written. */
  qualified: string;
  /** Time travel: an `AT (…)` clause. */
  historical: boolean;
}

/** A table reference that reads a CTE in scope. */
export interface CteReference {
  node: AstNode;
  slot: Slot;
  binding: CteBinding;
}

/** What a statement's parse tree alone says: the same on every run, whatever the catalog holds. */
export interface StatementFacts {
  tables: TableReference[];
  cteReferences: CteReference[];
  ctes: CteBinding[];
  columns: ReferencedColumns;
  /** Column references that name a schema and a table before the column (`shop.orders.id`), as Postgres lets them. */
  schemaQualifiedColumns: AstNode[];
  timeTravel: boolean;
  /** The names of the parameter markers (`$name`, and `$1` or `?` as `1`) the statement holds. */
  parameters: Set<string>;
}

/**
 * One walk over the tree: every table reference resolved against the CTEs in its scope, every
 * function, table function and catalog listing held against the policy, the nesting, conditions
 * and joins against the input limits (both throw), and the columns the query names.
 */
export function statementFacts(root: AstNode): StatementFacts {
  const tables: TableReference[] = [];
  const cteReferences: CteReference[] = [];
  const columns: ReferencedColumns = { all: false, names: new Set() };
  const parameters = new Set<string>();
  const schemaQualifiedColumns: AstNode[] = [];
  let conditions = 0;
  const ctes = walkStatement(root, (node, slot, scope, nesting) => {
    checkNesting(nesting);
    checkNodePolicy(node);
    if (node.class === 'CONJUNCTION' && Array.isArray(node.children)) conditions += node.children.length;
    if (node.type === 'JOIN' && (slot.parent as AstNode).type !== 'JOIN') checkJoinedTables(joinedTables(node));
    if (node.type === 'BASE_TABLE') {
      const binding = cteNamed(node, scope);
      if (binding) cteReferences.push({ node, slot, binding });
      else tables.push(tableReference(node, slot));
    } else if (node.class === 'STAR') {
      columns.all = true;
    } else if (node.class === 'COLUMN_REF' && Array.isArray(node.column_names)) {
      const last = node.column_names.at(-1);
      if (typeof last === 'string') columns.names.add(last.toLowerCase());
      if (node.column_names.length === 3) schemaQualifiedColumns.push(node);
    } else if (node.class === 'PARAMETER') {
      parameters.add(String(node.identifier ?? ''));
    }
  });
  checkConditions(conditions);
  return { tables, cteReferences, ctes, columns, schemaQualifiedColumns, timeTravel: tables.some((table) => table.historical), parameters };
}

/**
 * The CTE a table reference reads, if any: an unqualified name of a CTE in scope, or, inside the
 * recursive step of a `USING KEY` CTE, `recurring.<its name>`. A qualified name never reads a CTE.
 */
function cteNamed(node: AstNode, scope: WalkScope): CteBinding | undefined {
  const catalog = lowerName(node.catalog_name);
  const schema = lowerName(node.schema_name);
  if (catalog) return undefined;
  const binding = scope.lookup(lowerName(node.table_name));
  if (!schema) return binding;
  return schema === 'recurring' && binding?.keyed && scope.inRecursiveStep(binding) ? binding : undefined;
}

/** The relations a join tree joins: its leaves (subqueries count as one, as DuckDB orders them). */
function joinedTables(root: AstNode): number {
  let count = 0;
  const pending: AstValue[] = [root];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (node !== null && typeof node === 'object' && !Array.isArray(node) && node.type === 'JOIN') pending.push(node.left ?? null, node.right ?? null);
    else count += 1;
  }
  return count;
}

function tableReference(node: AstNode, slot: Slot): TableReference {
  const catalog = lowerName(node.catalog_name);
  const schema = lowerName(node.schema_name);
  const table = lowerName(node.table_name);
  const historical = node.at_clause !== null && node.at_clause !== undefined;
  return { node, slot, catalog, schema, table, qualified: `${schema || 'main'}.${table}`, historical };
}

function lowerName(value: unknown): string {
  return typeof value === 'string' ? value.toLowerCase() : '';
}
