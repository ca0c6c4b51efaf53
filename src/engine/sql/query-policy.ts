import { AppError } from '../../errors/app-error';
import type { AstNode } from './parse-query';

/**
 * What user SQL may call. Table functions are allowed by name (everything else reads files, the
 * network, settings or other catalogs); scalar functions are refused by name or prefix where they
 * expose the server (settings, secrets, catalogs, files).
 */
export const allowedTableFunctions = new Set(['range', 'generate_series', 'unnest', 'json_each', 'json_tree']);

const refusedFunctionPrefixes = ['duckdb_', 'ducklake_', 'pragma_', 'postgres_', 'sqlite_', 'read_', 'parquet_', 'install_', 'load_', 'export_', 'icu_'];

const refusedFunctions = new Set([
  'current_setting',
  'current_schemas',
  'which_secret',
  'getenv',
  'glob',
  'checkpoint',
  'force_checkpoint',
  'json_serialize_sql',
  'json_deserialize_sql',
  'json_serialize_plan',
  'json_execute_serialized_sql',
  'sql_auto_complete',
  'query',
  'query_table',
  'get_current_timestamp_ns',
]);

// Harmless pg_ names kept for Postgres compatibility.
const allowedPgFunctions = new Set(['pg_typeof']);

export function isRefusedFunction(name: string): boolean {
  const lower = name.toLowerCase();
  if (refusedFunctions.has(lower)) return true;
  if (lower.startsWith('pg_')) return !allowedPgFunctions.has(lower);
  return refusedFunctionPrefixes.some((prefix) => lower.startsWith(prefix));
}

/** Holds one node of the parse tree against the policy; throws STATEMENT_NOT_ALLOWED when it breaks it. */
export function checkNodePolicy(node: AstNode): void {
  if (node.type === 'TABLE_FUNCTION') {
    checkTableFunction(node);
  } else if (node.type === 'SHOW_REF' && (node.query === null || node.query === undefined)) {
    // DESCRIBE and SUMMARIZE of a table or query carry that query, which the checks see. The bare
    // forms (SHOW TABLES, SHOW ALL TABLES, SHOW DATABASES…) would list every attached catalog.
    throw new AppError('STATEMENT_NOT_ALLOWED', 'Catalog listings are not available as SQL', { hint: 'List the tables with GET /api/v1/query/tables.' });
  } else if (node.class === 'FUNCTION' || node.class === 'WINDOW' || node.class === 'AGGREGATE') {
    checkFunction(node);
  }
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
