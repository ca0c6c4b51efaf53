import type { EngineConnection } from '../../engine/duckdb/engine-connection';
import { sqlString } from '../../engine/sql-literals';

/** A table or view of the source, as the service names it (its stream) and where it really is. */
export interface SourceRelation {
  stream: string;
  schema: string;
  table: string;
  kind: 'table' | 'view';
  /** A scan can read it by ranges of its own pages: a table or a materialized view (not a partitioned or a foreign table). */
  pageRanges: boolean;
  /** A table (plain or partitioned), which a publication can hold: its changes can be replicated. */
  replicable: boolean;
  rowEstimate?: number;
  /** Average bytes a row takes in the source (its pages over its rows), for read estimates. */
  bytesPerRow: number;
}

export interface SourceColumn {
  name: string;
  /** The source's own type name (format_type), for literals the source compares with. */
  sourceType: string;
  notNull: boolean;
}

/** The alias a source session attaches the Postgres database under. */
export const sourceAlias = 'source';

/**
 * A stream's name: the table's name for tables in `public`, `<schema>_<table>` for the others, folded
 * to lower case with every character a lake name cannot hold made an underscore.
 */
export function streamName(schema: string, table: string): string | undefined {
  const raw = schema === 'public' ? table : `${schema}_${table}`;
  let name = raw.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  if (!/^[a-z_]/.test(name)) name = `_${name}`;
  return name.length <= 63 ? name : undefined;
}

/** A text as a Postgres literal, quoted (standard_conforming_strings: backslashes are plain). */
export function pgLiteral(value: string): string {
  if (value.includes('\0')) throw new Error('NUL byte in a Postgres literal');
  return `'${value.replaceAll("'", "''")}'`;
}

export function pgIdentifier(name: string): string {
  if (name.includes('\0')) throw new Error('NUL byte in a Postgres identifier');
  return `"${name.replaceAll('"', '""')}"`;
}

/** Runs a query on the source itself (through DuckDB's postgres_query) and returns its rows as objects. */
export async function sourceRows(connection: EngineConnection, query: string): Promise<Record<string, unknown>[]> {
  const rows = await connection.read(`SELECT * FROM postgres_query(${sqlString(sourceAlias)}, ${sqlString(query)})`);
  return rows.getRowObjectsJS() as Record<string, unknown>[];
}

/** The tables and views of the schemas, as streams (a name two relations would share goes to the first). */
export async function sourceRelations(connection: EngineConnection, schemas: string[]): Promise<SourceRelation[]> {
  const rows = await sourceRows(
    connection,
    `SELECT n.nspname AS schema_name, c.relname AS table_name, c.relkind::text AS kind, c.reltuples::float8 AS estimate, c.relpages::float8 AS pages,
            current_setting('block_size')::float8 AS block_size
     FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'v', 'm', 'p', 'f') AND n.nspname IN (${schemas.map(pgLiteral).join(', ')})
     ORDER BY 1, 2`,
  );
  const relations = new Map<string, SourceRelation>();
  for (const row of rows) {
    const stream = streamName(String(row.schema_name), String(row.table_name));
    if (stream === undefined || relations.has(stream)) continue;
    const estimate = Number(row.estimate);
    const known = estimate > 0;
    relations.set(stream, {
      stream,
      schema: String(row.schema_name),
      table: String(row.table_name),
      kind: row.kind === 'v' ? 'view' : 'table',
      pageRanges: row.kind === 'r' || row.kind === 'm',
      replicable: row.kind === 'r' || row.kind === 'p',
      rowEstimate: known ? Math.round(estimate) : undefined,
      bytesPerRow: known ? (Number(row.pages) * Number(row.block_size)) / estimate : 0,
    });
  }
  return [...relations.values()];
}

/** Columns of one relation in order, with their source types. */
export async function sourceColumns(connection: EngineConnection, relation: SourceRelation): Promise<SourceColumn[]> {
  const rows = await sourceRows(
    connection,
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS source_type, a.attnotnull AS not_null
     FROM pg_catalog.pg_attribute a
     WHERE a.attrelid = (${pgLiteral(`${pgIdentifier(relation.schema)}.${pgIdentifier(relation.table)}`)})::regclass AND a.attnum > 0 AND NOT a.attisdropped
     ORDER BY a.attnum`,
  );
  return rows.map((row) => ({ name: String(row.name), sourceType: String(row.source_type), notNull: row.not_null === true }));
}

/** Primary keys of the schemas' tables, by `schema.table`, columns in key order. */
export async function sourcePrimaryKeys(connection: EngineConnection, schemas: string[]): Promise<Map<string, string[]>> {
  const rows = await sourceRows(
    connection,
    `SELECT n.nspname AS schema_name, c.relname AS table_name, a.attname AS column_name, array_position(i.indkey::int2[], a.attnum) AS position
     FROM pg_catalog.pg_index i
     JOIN pg_catalog.pg_class c ON c.oid = i.indrelid
     JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
     JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY (i.indkey)
     WHERE i.indisprimary AND n.nspname IN (${schemas.map(pgLiteral).join(', ')})
     ORDER BY 1, 2, 4`,
  );
  const keys = new Map<string, string[]>();
  for (const row of rows) {
    const key = `${row.schema_name}.${row.table_name}`;
    keys.set(key, [...(keys.get(key) ?? []), String(row.column_name)]);
  }
  return keys;
}
