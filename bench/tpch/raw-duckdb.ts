import { DuckDBInstance } from '@duckdb/node-api';
import { sqlString } from '../../src/engine/sql-literals';
import { tpchTables, type TpchData } from './generate';
import type { QueryEngine } from './measure';
import { toRows } from './results';

/** A plain in-process DuckDB on its defaults, with a view per table over the generated Parquet files. */
export async function openRawDuckDB(data: TpchData): Promise<QueryEngine> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  for (const table of tpchTables) await connection.run(`CREATE VIEW ${table} AS SELECT * FROM read_parquet(${sqlString(data.parquet[table])})`);
  return {
    name: 'raw DuckDB',
    async run(sql) {
      return toRows((await connection.runAndReadAll(sql)).getRowsJson());
    },
    async close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}
