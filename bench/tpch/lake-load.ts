import type { Config } from '../../src/config';
import { attachCatalog } from '../../src/engine/attach-catalog';
import { catalogStoreFor } from '../../src/engine/catalog-attachment';
import { createDuckDBInstance } from '../../src/engine/duckdb/create-instance';
import { sqlIdentifier, sqlString } from '../../src/engine/sql-literals';
import { tpchTables, type TpchData } from './generate';
import { EngineConnection } from '../../src/engine/duckdb/engine-connection';

/**
 * Copies the Parquet files into a workspace's lake tables `<schema>.<table>`. A workspace's own
 * instance is locked to its data path and cannot read the generated files, so this is a separate,
 * unlocked instance on the same DuckLake catalog; the service must not hold the catalog meanwhile.
 */
export async function loadIntoLake(config: Config, workspaceId: string, schema: string, data: TpchData): Promise<void> {
  const instance = await createDuckDBInstance({ extensionDir: config.duckdb.extensionDir });
  const connection = new EngineConnection(await instance.connect());
  try {
    await attachCatalog(connection, { workspaceId, catalog: catalogStoreFor(config.metadata, config.dataDir), lake: config.lake }, 'lake');
    await connection.run(`CREATE SCHEMA IF NOT EXISTS lake.${sqlIdentifier(schema)}`);
    for (const table of tpchTables) {
      await connection.run(`CREATE TABLE lake.${sqlIdentifier(schema)}.${sqlIdentifier(table)} AS SELECT * FROM read_parquet(${sqlString(data.parquet[table])})`);
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
