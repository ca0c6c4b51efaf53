import { AppError } from '../../errors/app-error';
import { lakeAlias } from '../catalog-names';
import type { AstNode, AstValue } from './parse-query';
import { allowedTableFunctions, isRefusedFunction } from './query-policy';
import { closestName } from './closest-name';

export interface LakeTableRef {
  schema: string;
  table: string;
  /** Time travel: the `AT (…)` clause made the reference historical. */
  historical: boolean;
}

export interface KnownTables {
  /** Live tables as `schema.table`, lower-case. */
  live: Set<string>;
  /** Every table name the catalog ever held (for time travel to dropped or replaced tables). */
  ever: Set<string>;
}

/**
 * Walks DuckDB's parse tree and lets the query through only if every table it names is one of the
 * workspace's own lake tables (or one of its CTEs), every table function is on the allowlist and no
 * scalar function exposes the server. Returns the lake tables it reads.
 */
export function checkQuery(root: AstNode, tables: KnownTables): LakeTableRef[] {
  const cteNames = cteNamesOf(root);
  const refs: LakeTableRef[] = [];
  visit(root, (node) => {
    switch (node.type) {
      case 'BASE_TABLE':
        checkTableRef(node, cteNames, tables, refs);
        return;
      case 'TABLE_FUNCTION':
        checkTableFunction(node);
        return;
      case 'SHOW_REF':
        // DESCRIBE and SUMMARIZE of a table or query carry that query, which the walk checks. The bare
        // forms (SHOW TABLES, SHOW ALL TABLES, SHOW DATABASES…) would list every attached catalog.
        if (node.query === null || node.query === undefined) {
          throw new AppError('STATEMENT_NOT_ALLOWED', 'Catalog listings are not available as SQL', { hint: 'List the tables with GET /api/v1/query/tables.' });
        }
        return;
    }
    if (node.class === 'FUNCTION' || node.class === 'WINDOW' || node.class === 'AGGREGATE') checkFunction(node);
  });
  return refs;
}

/** The `schema.table` names a query reads (CTE names excluded), to resolve before checking. */
export function wantedTableNames(root: AstNode): string[] {
  const cteNames = cteNamesOf(root);
  const names: string[] = [];
  visit(root, (node) => {
    const name = node.type === 'BASE_TABLE' ? tableRefName(node, cteNames) : undefined;
    if (name) names.push(name.qualified);
  });
  return names;
}

/** What a table reference names, lower-case (`schema` as written, maybe empty); undefined for a CTE's name. */
export function tableRefName(node: AstNode, cteNames: Set<string>): { catalog: string; schema: string; table: string; qualified: string; historical: boolean } | undefined {
  const catalog = String(node.catalog_name ?? '').toLowerCase();
  const schema = String(node.schema_name ?? '').toLowerCase();
  const table = String(node.table_name ?? '').toLowerCase();
  if (!catalog && !schema && cteNames.has(table)) return undefined;
  return { catalog, schema, table, qualified: `${schema || 'main'}.${table}`, historical: node.at_clause !== null && node.at_clause !== undefined };
}

function checkTableRef(node: AstNode, cteNames: Set<string>, tables: KnownTables, refs: LakeTableRef[]): void {
  const name = tableRefName(node, cteNames);
  if (!name) return;
  const { catalog, schema, table, qualified, historical } = name;
  const known = historical ? tables.ever : tables.live;
  if ((catalog && catalog !== lakeAlias) || !known.has(qualified)) {
    const shown = [catalog, schema, table].filter(Boolean).join('.');
    const suggestion = closestName(qualified, [...tables.live]);
    throw new AppError('UNDEFINED_TABLE', `Table "${shown}" does not exist`, {
      hint: suggestion ? `Did you mean "${suggestion.replace(/^main\./, '')}"?` : 'List the tables with GET /api/v1/query/tables.',
    });
  }
  refs.push({ schema: schema || 'main', table, historical });
}

function checkTableFunction(node: AstNode): void {
  const fn = node.function as AstNode | undefined;
  const name = String(fn?.function_name ?? '').toLowerCase();
  if (fn?.catalog || fn?.schema || !allowedTableFunctions.has(name)) {
    throw new AppError('STATEMENT_NOT_ALLOWED', `The table function ${name}() is not available`, {
      hint: `Queries read the workspace's own tables; the table functions available are ${[...allowedTableFunctions].join(', ')}.`,
    });
  }
}

// Where built-in functions live: the parser itself writes `main.trim`, `main.date_part` for SQL's
// special syntax, and Postgres clients may write `pg_catalog.`. Any other qualifier names another catalog.
const builtInCatalogs = new Set(['', 'system']);
const builtInSchemas = new Set(['', 'main', 'pg_catalog']);

function checkFunction(node: AstNode): void {
  const name = String(node.function_name ?? '');
  const qualified = !builtInCatalogs.has(String(node.catalog ?? '').toLowerCase()) || !builtInSchemas.has(String(node.schema ?? '').toLowerCase());
  if (qualified || isRefusedFunction(name)) {
    throw new AppError('STATEMENT_NOT_ALLOWED', `The function ${name}() is not available`);
  }
}

/** Every CTE name anywhere in the query, lower-case: a bare table name equal to one is never a lake table. */
export function cteNamesOf(root: AstNode): Set<string> {
  const names = new Set<string>();
  visit(root, (node) => {
    const map = (node.cte_map as AstNode | undefined)?.map;
    if (Array.isArray(map)) for (const entry of map) names.add(String((entry as AstNode).key).toLowerCase());
  });
  return names;
}

/** Every object node of the tree, depth first: nothing nested can hide from the checks. */
function visit(value: AstValue, onNode: (node: AstNode) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) visit(item, onNode);
  } else if (value !== null && typeof value === 'object') {
    onNode(value);
    for (const child of Object.values(value)) visit(child, onNode);
  }
}
