import type { EngineConnection } from '../duckdb/engine-connection';
import { lakeAlias } from '../catalog-names';
import type { KnownTables } from './check-query';

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

  async resolve(connection: EngineConnection, metadataSchema: string, wanted: string[], withHistory: boolean): Promise<KnownTables> {
    if (!this.live || wanted.some((name) => !this.live!.has(name))) this.live = await liveTables(connection);
    if (!withHistory) return { live: this.live, ever: this.live };
    const ever = await connection.read(
      `SELECT DISTINCT lower(s.schema_name) || '.' || lower(t.table_name)
       FROM ${metadataSchema}.ducklake_table t JOIN ${metadataSchema}.ducklake_schema s ON s.schema_id = t.schema_id`,
    );
    return { live: this.live, ever: new Set([...this.live, ...ever.getRows().map(([name]) => String(name))]) };
  }
}

async function liveTables(connection: EngineConnection): Promise<Set<string>> {
  const reader = await connection.read(
    `SELECT lower(schema_name) || '.' || lower(table_name) FROM system.main.duckdb_tables() WHERE database_name = $catalog`,
    { catalog: lakeAlias },
  );
  return new Set(reader.getRows().map(([name]) => String(name)));
}
