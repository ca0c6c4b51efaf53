import { AppError } from '../../errors/app-error';
import type { AstNode } from './parse-query';

/**
 * What user SQL may call, decided by going through `duckdb_functions()` of the pinned DuckDB with
 * the engine's extensions loaded. Table functions are allowed by name (every other one reads files,
 * the network, settings, logs or catalogs). Scalar functions and macros are refused by name or
 * prefix where they reveal the server or change a connection's state: settings and paths, the
 * statement as it runs (which holds file paths), the instance's counters and version, catalogs,
 * sequences, the random seed, logs, sleeping. Macros count too: DuckDB expands them after these
 * checks, so one whose body reads a catalog (`get_block_size`, `format_type`) is refused by name.
 */
export const allowedTableFunctions = new Set(['range', 'generate_series', 'unnest', 'json_each', 'json_tree']);

const refusedFunctionPrefixes = [
  'duckdb_',
  'ducklake_',
  'pragma_',
  'postgres_',
  'sqlite_',
  'read_',
  'parquet_',
  'install_',
  'load_',
  'export_',
  'icu_',
  '__internal_',
];

const refusedFunctions = new Set([
  // settings, environment, secrets, files
  'current_setting',
  'getenv',
  'which_secret',
  'glob',
  // the statement as it runs, the instance's counters and identity
  'current_query',
  'current_query_id',
  'current_connection_id',
  'current_transaction_id',
  'txid_current',
  'version',
  'inet_client_addr',
  'inet_client_port',
  'inet_server_addr',
  'inet_server_port',
  // catalogs and search paths
  'current_schemas',
  'in_search_path',
  'get_block_size',
  'format_type',
  // other statements, plans and parsing
  'query',
  'query_table',
  'json_serialize_sql',
  'json_deserialize_sql',
  'json_serialize_plan',
  'json_execute_serialized_sql',
  'sql_auto_complete',
  // state of the instance or the connection, logs, time
  'checkpoint',
  'force_checkpoint',
  'nextval',
  'currval',
  'setseed',
  'write_log',
  'parse_duckdb_log_message',
  'sleep_ms',
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
    throw new AppError('STATEMENT_NOT_ALLOWED', 'Catalog listings are not available as SQL', {
      hint: 'The workspace’s tables are listed by the interface, not by SQL.',
      advice: 'list-tables',
    });
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
