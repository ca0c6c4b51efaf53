import type { EngineConnection } from '../duckdb/engine-connection';
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
  snapshotsExpired: number;
  filesDeleted: number;
}

/**
 * DuckLake's recommended maintenance, in order: merge the small files many small pushes leave,
 * expire snapshots beyond the plan's time-travel window, then delete the files no snapshot needs.
 */
export async function runMaintenance(connection: EngineConnection, metadata: string, options: MaintenanceOptions): Promise<MaintenanceReport> {
  const catalog = sqlString(lakeAlias);
  const countFiles = async () => Number((await connection.read(`SELECT count(*) FROM ${metadata}.ducklake_data_file WHERE end_snapshot IS NULL`)).getRows()[0]?.[0] ?? 0);
  const dataFilesBefore = await countFiles();
  await connection.run(`CALL ${lakeAlias}.set_option('target_file_size', ${sqlString(`${options.targetFileSizeBytes}B`)})`);
  await connection.run(`CALL ducklake_merge_adjacent_files(${catalog})`);
  const cutoff = `now() - INTERVAL ${sqlString(`${options.timeTravelDays} days`)}`;
  const expired = await connection.read(`CALL ducklake_expire_snapshots(${catalog}, older_than => ${cutoff})`);
  const deleted = await connection.read(`CALL ducklake_cleanup_old_files(${catalog}, older_than => ${cutoff})`);
  return {
    dataFilesBefore,
    dataFilesAfter: await countFiles(),
    snapshotsExpired: expired.getRows().length,
    filesDeleted: deleted.getRows().length,
  };
}
