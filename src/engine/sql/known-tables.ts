import type { DuckDBConnection } from '@duckdb/node-api';
import { lakeAlias } from '../workspace-engine';

export interface KnownTables {
  /** Live tables as `schema.table`, lower-case. */
  live: Set<string>;
  /** Every table name the catalog ever held (for time travel to dropped or replaced tables). */
  ever: Set<string>;
}

/**
 * The workspace's table names, kept between queries: listing them costs a round trip to the DuckLake
 * catalog. A name missing from the cache reloads it (another process may have created the table);
 * a cached name whose table was dropped elsewhere fails in DuckDB with the same UNDEFINED_TABLE.
 */
export class TableNameCache {
  private live: Set<string> | undefined;

  invalidate(): void {
    this.live = undefined;
  }

  async resolve(connection: DuckDBConnection, metadataSchema: string, wanted: string[], withHistory: boolean): Promise<KnownTables> {
    if (!this.live || wanted.some((name) => !this.live!.has(name))) this.live = await liveTables(connection);
    if (!withHistory) return { live: this.live, ever: this.live };
    const ever = await connection.runAndReadAll(
      `SELECT DISTINCT lower(s.schema_name) || '.' || lower(t.table_name)
       FROM ${metadataSchema}.ducklake_table t JOIN ${metadataSchema}.ducklake_schema s ON s.schema_id = t.schema_id`,
    );
    return { live: this.live, ever: new Set([...this.live, ...ever.getRows().map(([name]) => String(name))]) };
  }
}

async function liveTables(connection: DuckDBConnection): Promise<Set<string>> {
  const reader = await connection.runAndReadAll(
    `SELECT lower(schema_name) || '.' || lower(table_name) FROM system.main.duckdb_tables() WHERE database_name = $catalog`,
    { catalog: lakeAlias },
  );
  return new Set(reader.getRows().map(([name]) => String(name)));
}
