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
