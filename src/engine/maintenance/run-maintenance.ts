import type { EngineConnection } from '../duckdb/engine-connection';
import { isCatalogLocked } from '../duckdb/duckdb-error';
import { retriedWhileCatalogLocked } from '../catalog-retry';
import { sqlString } from '../sql-literals';
import { lakeAlias } from '../catalog-names';

export interface MaintenanceOptions {
  /** Snapshots older than this many days are expired (the plan's time-travel window). */
  timeTravelDays: number;
  targetFileSizeBytes: number;
}

export interface MaintenanceReport {
  dataFilesBefore: number;
  dataFilesAfter: number;
  /** Live delete files before and after: an upsert or delete leaves one per data file it touched. */
  deleteFilesBefore: number;
  deleteFilesAfter: number;
  snapshotsExpired: number;
  filesDeleted: number;
  /** Tables a concurrent write changed while their files were being rewritten: the next run takes them up. */
  tablesDeferred: string[];
}

/**
 * A file is rewritten without its deleted rows once any of them is deleted. DuckLake's default (0.95)
 * leaves a file that an upsert touched with its delete file for ever: every scan then reads both and
 * filters, and the query path can only read a file directly when nothing of it is deleted. Rewriting
 * costs one pass over the file per maintenance run, and only after rows of it were deleted.
 */
const rewriteDeleteThreshold = 0;

/**
 * DuckLake's own maintenance, table by table: rewrite the files that carry deletes without the deleted
 * rows, merge the small files many pushes and rewrites leave (up to the target size), then, for the
 * whole catalog, expire snapshots beyond the plan's time-travel window and delete the files no snapshot
 * needs any more.
 *
 * Nothing here blocks readers or writers: each step is a DuckLake transaction of its own that commits
 * a new snapshot, and older snapshots keep their files (a merged file keeps each row's snapshot, so
 * time travel into the window reads the same rows as before). A table that a push changed meanwhile
 * is left as it is when the two commits conflict (the push wins, maintenance tries a few times more),
 * and is taken up by the next run.
 */
export async function runMaintenance(connection: EngineConnection, metadata: string, options: MaintenanceOptions): Promise<MaintenanceReport> {
  const catalog = sqlString(lakeAlias);
  // An embedded catalog's guard rows (table id -1, see whole-catalog-scans.ts) are no files.
  const count = async (table: string) =>
    Number((await connection.read(`SELECT count(*) FROM ${metadata}.${table} WHERE end_snapshot IS NULL AND table_id >= 0`)).getRows()[0]?.[0] ?? 0);
  const dataFilesBefore = await count('ducklake_data_file');
  const deleteFilesBefore = await count('ducklake_delete_file');
  await retried(() => connection.run(`CALL ${lakeAlias}.set_option('target_file_size', ${sqlString(`${options.targetFileSizeBytes}B`)})`));
  const tablesDeferred: string[] = [];
  for (const { schema, table, deletes } of await liveTables(connection, metadata)) {
    const target = `${catalog}, ${sqlString(table)}, schema => ${sqlString(schema)}`;
    try {
      if (deletes) await retried(() => inTransaction(connection, `CALL ducklake_rewrite_data_files(${target}, delete_threshold => ${rewriteDeleteThreshold})`));
      await retried(() => inTransaction(connection, `CALL ducklake_merge_adjacent_files(${target})`));
    } catch (error) {
      if (!isCatalogLocked(error)) throw error;
      tablesDeferred.push(`${schema}.${table}`);
    }
  }
  const cutoff = `now() - INTERVAL ${sqlString(`${options.timeTravelDays} days`)}`;
  const expired = await retried(() => connection.read(`CALL ducklake_expire_snapshots(${catalog}, older_than => ${cutoff})`));
  const deleted = await retried(() => connection.read(`CALL ducklake_cleanup_old_files(${catalog}, older_than => ${cutoff})`));
  return {
    dataFilesBefore,
    dataFilesAfter: await count('ducklake_data_file'),
    deleteFilesBefore,
    deleteFilesAfter: await count('ducklake_delete_file'),
    snapshotsExpired: expired.getRows().length,
    filesDeleted: deleted.getRows().length,
    tablesDeferred,
  };
}

/** The catalog's live tables with more than one data file or with live deletes: those maintenance can improve. */
async function liveTables(connection: EngineConnection, metadata: string): Promise<{ schema: string; table: string; deletes: boolean }[]> {
  const rows = await connection.read(
    `SELECT s.schema_name, t.table_name,
            (SELECT count(*) FROM ${metadata}.ducklake_data_file f WHERE f.table_id = t.table_id AND f.end_snapshot IS NULL) AS files,
            (SELECT count(*) FROM ${metadata}.ducklake_delete_file d WHERE d.table_id = t.table_id AND d.end_snapshot IS NULL) AS deletes
     FROM ${metadata}.ducklake_table t JOIN ${metadata}.ducklake_schema s ON s.schema_id = t.schema_id
     WHERE t.end_snapshot IS NULL AND s.end_snapshot IS NULL
     ORDER BY t.table_id`,
  );
  return rows
    .getRows()
    .filter(([, , files, deletes]) => Number(files) > 1 || Number(deletes) > 0)
    .map(([schema, table, , deletes]) => ({ schema: String(schema), table: String(table), deletes: Number(deletes) > 0 }));
}

/**
 * One maintenance call in a transaction of its own: a statement is prepared before it runs (see
 * EngineConnection), and DuckLake refuses to scan in a transaction other than the one that bound it.
 */
async function inTransaction(connection: EngineConnection, sql: string): Promise<void> {
  await connection.run('BEGIN TRANSACTION');
  try {
    await connection.run(sql);
    await connection.run('COMMIT');
  } catch (error) {
    await connection.rollback();
    throw error;
  }
}

/** Attempts at a maintenance step that a concurrent commit got in the way of (a conflict, or an embedded catalog's lock). */
const attempts = 4;

function retried<T>(step: () => Promise<T>): Promise<T> {
  return retriedWhileCatalogLocked(step, attempts);
}
