import type { Config } from '../../src/config';
import { attachCatalog } from '../../src/engine/attach-catalog';
import { catalogStoreFor } from '../../src/engine/catalog-attachment';
import { createDuckDBInstance } from '../../src/engine/duckdb/create-instance';
import { sqlIdentifier, sqlString } from '../../src/engine/sql-literals';
import { tpchTables, type TpchData } from './generate';
import { EngineConnection } from '../../src/engine/duckdb/engine-connection';

/** How the tables are written: in one statement each, or as many pushes and upserts leave them. */
export interface LoadShape {
  /** Each table is written in this many appends (1: one `CREATE TABLE AS`, one file). */
  appends: number;
  /** Then one row in this many is updated in place to the same values (0: none), which leaves delete files. */
  updateOneIn: number;
}

export const oneFile: LoadShape = { appends: 1, updateOneIn: 0 };

/**
 * Copies the Parquet files into a workspace's lake tables `<schema>.<table>`. A workspace's own
 * instance is locked to its data path and cannot read the generated files, so this is a separate,
 * unlocked instance on the same DuckLake catalog; the service must not hold the catalog meanwhile.
 */
export async function loadIntoLake(config: Config, workspaceId: string, schema: string, data: TpchData, shape: LoadShape = oneFile): Promise<void> {
  const instance = await createDuckDBInstance({ extensionDir: config.duckdb.extensionDir });
  const connection = new EngineConnection(await instance.connect());
  try {
    await attachCatalog(connection, { workspaceId, catalog: catalogStoreFor(config.metadata, config.dataDir), lake: config.lake }, 'lake');
    await connection.run(`CREATE SCHEMA IF NOT EXISTS lake.${sqlIdentifier(schema)}`);
    for (const table of tpchTables) {
      const target = `lake.${sqlIdentifier(schema)}.${sqlIdentifier(table)}`;
      const source = `read_parquet(${sqlString(data.parquet[table])})`;
      if (shape.appends <= 1) {
        await connection.run(`CREATE TABLE ${target} AS SELECT * FROM ${source}`);
      } else {
        await loadInAppends(connection, target, source, data.rowCounts[table], shape.appends);
      }
      if (shape.updateOneIn > 0) await updateInPlace(connection, target, shape.updateOneIn);
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** One snapshot and one file per append, rows in the generated order. */
async function loadInAppends(connection: EngineConnection, target: string, source: string, rows: number, appends: number): Promise<void> {
  await connection.run(`CREATE TABLE ${target} AS SELECT * FROM ${source} LIMIT 0`);
  const step = Math.ceil(rows / appends);
  for (let offset = 0; offset < rows; offset += step) {
    await connection.run(`INSERT INTO ${target} SELECT * FROM ${source} LIMIT ${step} OFFSET ${offset}`);
  }
}

/**
 * An upsert of rows spread over every file, as a sync's updates are: DuckLake writes a delete file
 * per file touched and the new versions in a file of their own. The values stay the same, so every
 * query's result does too.
 */
async function updateInPlace(connection: EngineConnection, target: string, oneIn: number): Promise<void> {
  const columns = (await connection.read(`DESCRIBE ${target}`)).getRows().map(([name]) => String(name));
  const last = sqlIdentifier(columns.at(-1)!);
  await connection.run(`UPDATE ${target} SET ${last} = ${last} WHERE hash(rowid) % ${oneIn} = 0`);
}
