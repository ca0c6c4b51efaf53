import type { EngineConnection } from './duckdb/engine-connection';
import { retriedWhileCatalogLocked } from './catalog-retry';
import { sqlIdentifier, sqlString } from './sql-literals';
import { metadataDatabase } from './catalog-names';

/**
 * DuckDB's SQLite scanner reads a table of an attached file in row-id ranges: it takes the table's
 * lowest and highest row id from the transaction's own SQLite connection, whose view of the file is
 * the one of the transaction's first read, then reads the ranges on fresh connections, which see the
 * latest commit. DuckLake reads its catalog that way, and a merge of a table's files deletes their
 * rows and inserts the merged file's as a new row, whose row id is beyond that old highest one when
 * other rows were inserted after the merged ones (another table's merge, say). A reader whose
 * snapshot was read before the merge committed and whose file list after it then finds neither the
 * old files nor the merged one: the table reads empty for that statement.
 *
 * The scanner reads a table whole, from its latest commit, when the table has a negative row id. The
 * catalog tables a merge rewrites and a read of a table takes its files from (data files, delete
 * files, column statistics; the lake has no partitions) each get one row at row id -1 that DuckLake
 * never selects: a table id no table has, no begin snapshot (so no snapshot is ever within its life)
 * and no end snapshot (snapshot expiry only collects rows that ended). A count of live files over all
 * tables leaves table id -1 out. The latest commit is what DuckLake expects to read (it filters every
 * row by the snapshot), and the catalogs' tables are far below the scanner's range size, so they were
 * read in one range anyway.
 */
const guardedTables = [
  { table: 'ducklake_data_file', columns: 'data_file_id, table_id, file_size_bytes, record_count' },
  { table: 'ducklake_delete_file', columns: 'delete_file_id, table_id, file_size_bytes, delete_count' },
  { table: 'ducklake_file_column_stats', columns: 'data_file_id, table_id, column_size_bytes, value_count' },
] as const;

/** The row id and ids of the guard rows: never DuckLake's (its ids start at 0). */
const guardId = -1;

/** Catalog files whose guard rows this process has seen or written. */
const guarded = new Map<string, Promise<void>>();

/**
 * Makes sure the embedded catalog attached as `alias` has its guard rows (once per file and process):
 * a read, and a write only for a catalog just created or made before they existed. `created` says the
 * attach made the file: one guarded before under the same path (a purged workspace's) is gone.
 */
export function guardWholeCatalogScans(connection: EngineConnection, alias: string, catalogFile: string, created: boolean): Promise<void> {
  if (created) guarded.delete(catalogFile);
  let done = guarded.get(catalogFile);
  if (!done) {
    done = retriedWhileCatalogLocked(() => writeGuardRows(connection, metadataDatabase(alias)), 5);
    guarded.set(catalogFile, done);
    done.catch(() => guarded.delete(catalogFile));
  }
  return done;
}

async function writeGuardRows(connection: EngineConnection, metadata: string): Promise<void> {
  const inCatalog = (sql: string) => connection.read(`SELECT * FROM sqlite_query(${sqlString(metadata)}, ${sqlString(sql)})`);
  // In a transaction of its own: sqlite_query runs on the connection of the transaction that bound it.
  await connection.run('BEGIN TRANSACTION');
  try {
    const present = await inCatalog(`SELECT ${guardedTables.map(({ table }) => `(SELECT count(*) FROM ${table} WHERE rowid = ${guardId})`).join(' + ')}`);
    if (Number(present.scalar()) !== guardedTables.length) {
      for (const { table, columns } of guardedTables) {
        await inCatalog(`INSERT OR IGNORE INTO ${sqlIdentifier(table)} (rowid, ${columns}) VALUES (${guardId}, ${guardId}, ${guardId}, 0, 0) RETURNING rowid`);
      }
    }
    await connection.run('COMMIT');
  } catch (error) {
    await connection.rollback();
    throw error;
  }
}
