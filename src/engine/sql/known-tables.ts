import type { DuckDBConnection } from '@duckdb/node-api';
import { lakeAlias } from '../workspace-engine';
import type { KnownTables } from './check-query';

/** The workspace's live tables, and, when time travel asks for them, every name the catalog ever held. */
export async function knownTables(connection: DuckDBConnection, metadataSchema: string, withHistory: boolean): Promise<KnownTables> {
  const live = await connection.runAndReadAll(
    `SELECT lower(schema_name) || '.' || lower(table_name) FROM duckdb_tables() WHERE database_name = $catalog`,
    { catalog: lakeAlias },
  );
  const liveNames = new Set(live.getRows().map(([name]) => String(name)));
  if (!withHistory) return { live: liveNames, ever: liveNames };
  const ever = await connection.runAndReadAll(
    `SELECT DISTINCT lower(s.schema_name) || '.' || lower(t.table_name)
     FROM ${metadataSchema}.ducklake_table t JOIN ${metadataSchema}.ducklake_schema s ON s.schema_id = t.schema_id`,
  );
  return { live: liveNames, ever: new Set([...liveNames, ...ever.getRows().map(([name]) => String(name))]) };
}
