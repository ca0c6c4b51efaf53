import type { Logger } from '../../logging/logger';
import type { EngineConnection } from '../duckdb/engine-connection';
import { sqlString } from '../sql-literals';
import { attachPostgres, type PostgresSource } from '../sync/source-attachments';

/**
 * A connection in `live` query mode: its source attached read-only to the workspace's query instance
 * (before the instance is locked), so that queries read `<name>.<table>` in place.
 */
export interface LiveSource {
  /** The schema queries name its tables under: the connection's name. */
  name: string;
  /** The catalog it is attached as, which no query names (the SQL pipeline maps `<name>.<table>` onto it). */
  alias: string;
  postgres: PostgresSource;
  /** The source schemas whose tables and views are exposed. */
  schemas: string[];
  /** The name a source table is queried by (its stream name), or undefined to leave it out. */
  tableName(schema: string, table: string): string | undefined;
}

/** The live sources of each workspace; the fingerprint changes whenever they do. */
export interface LiveSourceProvider {
  sourcesOf(workspaceId: string): Promise<{ sources: LiveSource[]; fingerprint: string }>;
}

/** Where a live table really is, in the instance's catalogs. */
export interface AttachedTable {
  catalog: string;
  schema: string;
  table: string;
}

/** The live tables an instance offers, by `<name>.<table>`, and the sources it could not reach. */
export interface LiveTables {
  tables: Map<string, AttachedTable>;
  /** Connection name → why its source is not attached (unreachable when the instance opened). */
  unavailable: Map<string, string>;
}

export const noLiveTables: LiveTables = { tables: new Map(), unavailable: new Map() };

/**
 * Attaches each source and lists the tables and views of its schemas. A source that cannot be reached
 * is left out (its queries say so) rather than keeping the workspace's instance from opening.
 */
export async function attachLiveSources(connection: EngineConnection, sources: LiveSource[], logger?: Logger): Promise<LiveTables> {
  const live: LiveTables = { tables: new Map(), unavailable: new Map() };
  for (const source of sources) {
    try {
      await attachPostgres(connection, source.alias, source.postgres);
      for (const [schema, table] of await relationsOf(connection, source)) {
        const name = source.tableName(schema, table);
        if (name !== undefined) live.tables.set(`${source.name}.${name}`.toLowerCase(), { catalog: source.alias, schema, table });
      }
    } catch (error) {
      logger?.warn('a live connection could not be attached', { connection: source.name, error: error instanceof Error ? error.message : String(error) });
      live.unavailable.set(source.name.toLowerCase(), 'its source could not be reached when the workspace’s engine opened');
    }
  }
  return live;
}

/** Tables, views, materialized views, partitioned and foreign tables of the source's schemas. */
async function relationsOf(connection: EngineConnection, source: LiveSource): Promise<[string, string][]> {
  const schemas = source.schemas.map((schema) => `'${schema.replaceAll("'", "''")}'`).join(', ');
  const query = `SELECT n.nspname, c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                 WHERE c.relkind IN ('r', 'v', 'm', 'p', 'f') AND n.nspname IN (${schemas})`;
  const rows = await connection.read(`SELECT * FROM postgres_query(${sqlString(source.alias)}, ${sqlString(query)})`);
  return rows.getRows().map(([schema, table]) => [String(schema), String(table)]);
}
