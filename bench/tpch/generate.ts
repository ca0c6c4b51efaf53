import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDuckDBInstance } from '../../src/engine/duckdb/create-instance';
import { sqlString } from '../../src/engine/sql-literals';

/** The eight TPC-H tables, smallest first. */
export const tpchTables = ['region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem'] as const;
export type TpchTable = (typeof tpchTables)[number];

export interface TpchQuery {
  nr: number;
  sql: string;
}

export interface TpchData {
  scaleFactor: number;
  /** One Parquet file per table, which every engine loads or reads. */
  parquet: Record<TpchTable, string>;
  rowCounts: Record<TpchTable, number>;
  /** The 22 queries as DuckDB's tpch extension writes them, on unqualified table names. */
  queries: TpchQuery[];
  cleanup(): void;
}

/** Generates TPC-H with DuckDB's own dbgen (the extension comes from the tools folder) into Parquet files. */
export async function generateTpch(extensionDir: string, scaleFactor: number): Promise<TpchData> {
  const dir = mkdtempSync(join(tmpdir(), 'oxbow-tpch-'));
  // Autoinstall and autoload off, tpch loaded from the tools folder: nothing is downloaded.
  const instance = await createDuckDBInstance({ extensionDir, extensions: ['tpch'] });
  const connection = await instance.connect();
  try {
    await connection.run(`CALL dbgen(sf = ${scaleFactor})`);
    const parquet = {} as Record<TpchTable, string>;
    const rowCounts = {} as Record<TpchTable, number>;
    for (const table of tpchTables) {
      parquet[table] = join(dir, `${table}.parquet`);
      await connection.run(`COPY ${table} TO ${sqlString(parquet[table])} (FORMAT parquet)`);
      rowCounts[table] = Number((await connection.runAndReadAll(`SELECT count(*) FROM ${table}`)).getRows()[0]![0]);
    }
    const queries = (await connection.runAndReadAll('SELECT query_nr, query FROM tpch_queries() ORDER BY query_nr'))
      .getRows()
      .map(([nr, sql]) => ({ nr: Number(nr), sql: String(sql) }));
    return { scaleFactor, parquet, rowCounts, queries, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
