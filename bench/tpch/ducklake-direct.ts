import type { Config } from '../../src/config';
import { attachCatalog } from '../../src/engine/attach-catalog';
import { catalogStoreFor } from '../../src/engine/catalog-attachment';
import { createDuckDBInstance } from '../../src/engine/duckdb/create-instance';
import type { QueryEngine } from './measure';
import { lakeSql } from './oxbow';
import { toRows } from './results';
import { EngineConnection } from '../../src/engine/duckdb/engine-connection';

/**
 * A plain DuckDB reading the workspace's DuckLake catalog, with the memory and thread caps of a
 * workspace instance: what the lakehouse format itself costs, without anything of the service.
 * Oxbow ÷ this is the service's own share of the difference to raw DuckDB.
 */
export async function openDuckLakeDirect(config: Config, workspaceId: string, schema: string, name: string): Promise<QueryEngine> {
  const instance = await createDuckDBInstance({
    extensionDir: config.duckdb.extensionDir,
    memoryLimit: config.duckdb.memoryLimit,
    threads: config.duckdb.threads,
  });
  const connection = await instance.connect();
  await attachCatalog(new EngineConnection(connection), { workspaceId, catalog: catalogStoreFor(config.metadata, config.dataDir), lake: config.lake }, 'lake');
  await connection.run('USE lake');
  return {
    name,
    async run(sql) {
      return toRows((await connection.runAndReadAll(lakeSql(sql, schema))).getRowsJson());
    },
    async close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}
