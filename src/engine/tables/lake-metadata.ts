import { namedQuery } from '../../store/named-query';
import type { CatalogReader } from '../catalog-reader';
import type { EngineConnection } from '../duckdb/engine-connection';
import type { TableName } from '../write/table-name';
import { lakeAlias } from '../catalog-names';
import { sqlString } from '../sql-literals';
import { isoMicroseconds, snapshotTimeSql } from './snapshot-time';
import { tableLivesSql } from './table-lives';

export interface TableStats {
  schema_name: string;
  name: string;
  row_count: number;
  size_bytes: number;
  file_count: number;
  column_count: number;
  created_at: string;
  updated_at: string;
  /** The oldest time time travel can still reach for this table name (see tableLivesSql). */
  earliest_snapshot_at: string;
  table_path: string;
}

/**
 * Table statistics straight from DuckLake's catalog tables, without scanning data: rows are the live
 * data files' records minus the live delete files' deletions; sizes count both kinds of file. The
 * times are snapshots' times (see snapshot-time.ts): the table's creation and its last change, or,
 * once maintenance expired that snapshot, the earliest one kept after it (which reads the same table).
 */
export async function tableStats(connection: EngineConnection, metadata: string, only?: TableName): Promise<TableStats[]> {
  const filter = only ? 's.schema_name = $schema AND t.table_name = $table' : undefined;
  const snapshotAtOrAfter = (id: string) => `(SELECT min(${snapshotTimeSql('snapshot_time')}) FROM ${metadata}.ducklake_snapshot WHERE snapshot_id >= ${id})`;
  const reader = await connection.read(
    `WITH live AS (
       SELECT t.table_id, t.table_name, t.begin_snapshot, t.path AS table_path, s.schema_name, s.path AS schema_path
       FROM ${metadata}.ducklake_table t JOIN ${metadata}.ducklake_schema s ON s.schema_id = t.schema_id
       WHERE t.end_snapshot IS NULL AND s.end_snapshot IS NULL ${filter ? `AND ${filter}` : ''}
     ),
     data AS (SELECT table_id, count(*) AS files, sum(record_count) AS records, sum(file_size_bytes) AS bytes, max(begin_snapshot) AS last_snapshot
              FROM ${metadata}.ducklake_data_file WHERE end_snapshot IS NULL GROUP BY table_id),
     deletes AS (SELECT table_id, count(*) AS files, sum(delete_count) AS deleted, sum(file_size_bytes) AS bytes, max(begin_snapshot) AS last_snapshot
                 FROM ${metadata}.ducklake_delete_file WHERE end_snapshot IS NULL GROUP BY table_id),
     columns AS (SELECT table_id, count(*) AS columns, max(begin_snapshot) AS last_snapshot
                 FROM ${metadata}.ducklake_column WHERE end_snapshot IS NULL AND parent_column IS NULL GROUP BY table_id),
     ${tableLivesSql(metadata, filter)}
     SELECT live.schema_name, live.table_name AS name,
            (coalesce(data.records, 0) - coalesce(deletes.deleted, 0))::BIGINT AS row_count,
            (coalesce(data.bytes, 0) + coalesce(deletes.bytes, 0))::BIGINT AS size_bytes,
            (coalesce(data.files, 0) + coalesce(deletes.files, 0))::BIGINT AS file_count,
            coalesce(columns.columns, 0)::BIGINT AS column_count,
            ${snapshotAtOrAfter('live.begin_snapshot')} AS created_us,
            ${snapshotAtOrAfter('greatest(live.begin_snapshot, coalesce(data.last_snapshot, 0), coalesce(deletes.last_snapshot, 0), coalesce(columns.last_snapshot, 0))')} AS updated_us,
            lives.since_us AS earliest_us,
            live.schema_path || live.table_path AS table_path
     FROM live
     LEFT JOIN data USING (table_id) LEFT JOIN deletes USING (table_id) LEFT JOIN columns USING (table_id)
     JOIN lives ON lives.schema_name = live.schema_name AND lives.table_name = live.table_name
     ORDER BY live.schema_name, live.table_name`,
    only ? { schema: only.schema, table: only.table } : undefined,
  );
  return (reader.getRowObjectsJS() as Record<string, unknown>[]).map((row) => ({
    schema_name: String(row.schema_name),
    name: String(row.name),
    row_count: Number(row.row_count),
    size_bytes: Number(row.size_bytes),
    file_count: Number(row.file_count),
    column_count: Number(row.column_count),
    created_at: isoMicroseconds(row.created_us),
    updated_at: isoMicroseconds(row.updated_us),
    earliest_snapshot_at: isoMicroseconds(row.earliest_us),
    table_path: String(row.table_path),
  }));
}

/**
 * The bytes a workspace's lake holds: every data and delete file of its tables that the catalog still
 * lists, the live ones and those kept for time travel until maintenance expires their snapshots, at the
 * sizes the catalog recorded when they were written (no listing of the storage). A dropped table's
 * files are deleted with it, though the catalog lists them until its snapshots expire: they do not count.
 */
export async function lakeStorageBytes(catalog: CatalogReader): Promise<number> {
  const [row] = await catalog.all(storageBytes, {});
  return Number(row?.bytes ?? 0);
}

// Read through the catalog reader: every push asks, and through DuckDB's postgres_scanner the read's
// start held the event loop's thread for 4 to 20 ms.
const storageBytes = namedQuery<Record<never, never>, { bytes: number | string | null }>(
  'lake.storage_bytes',
  `SELECT (SELECT coalesce(sum(file_size_bytes), 0) FROM {catalog}.ducklake_data_file WHERE table_id IN (SELECT table_id FROM {catalog}.ducklake_table WHERE end_snapshot IS NULL))
        + (SELECT coalesce(sum(file_size_bytes), 0) FROM {catalog}.ducklake_delete_file WHERE table_id IN (SELECT table_id FROM {catalog}.ducklake_table WHERE end_snapshot IS NULL)) AS bytes`,
);

/**
 * The names of a schema's tables as the catalog's latest snapshot has them, starting with `prefix`.
 * Read from DuckLake's own tables: `duckdb_tables()` works out every table's size of every attached
 * database as it lists them (15 ms with ten tables).
 */
export async function liveTableNames(connection: EngineConnection, metadata: string, schema: string, prefix: string): Promise<string[]> {
  const reader = await connection.read(
    `SELECT t.table_name FROM ${metadata}.ducklake_table t JOIN ${metadata}.ducklake_schema s ON s.schema_id = t.schema_id
     WHERE t.end_snapshot IS NULL AND s.end_snapshot IS NULL AND s.schema_name = $schema AND starts_with(t.table_name, $prefix)
     ORDER BY t.table_name`,
    { schema, prefix },
  );
  return reader.getRows().map(([name]) => String(name));
}

/**
 * The snapshot the instance's own last commit to the lake made, undefined before its first. DuckLake
 * remembers it in memory: no read of the catalog (which costs 5 to 10 ms on an embedded one).
 */
export async function lastCommittedSnapshotId(connection: EngineConnection): Promise<number | undefined> {
  const reader = await connection.read(`SELECT id FROM ducklake_last_committed_snapshot(${sqlString(lakeAlias)})`);
  const id = reader.getRows()[0]?.[0];
  return id === null || id === undefined ? undefined : Number(id);
}

/** The catalog's current snapshot id. */
export async function currentSnapshotId(connection: EngineConnection, metadata: string): Promise<number> {
  const reader = await connection.read(`SELECT max(snapshot_id) FROM ${metadata}.ducklake_snapshot`);
  return Number(reader.getRows()[0]?.[0] ?? 0);
}
