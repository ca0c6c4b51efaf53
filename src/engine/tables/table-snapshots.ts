import type { EngineConnection } from '../duckdb/engine-connection';
import type { TableName } from '../write/table-name';

export interface TableSnapshot {
  snapshot_id: number;
  snapshot_time: string;
  /** What the snapshot did to the table: made it, wrote rows, removed rows, both, or rewrote files without changing rows (maintenance). */
  change: 'created' | 'insert' | 'delete' | 'update' | 'rewrite' | 'schema';
  /** Rows in the data files the snapshot wrote. */
  rows_added: number;
  /** Rows in the data files it retired plus those its delete files remove (a rewrite retires as many as it writes). */
  rows_removed: number;
}

/**
 * The snapshots that changed a table, newest first, from DuckLake's catalog (no data is read): the
 * one that created it, and each that added or retired its data files, wrote delete files or changed
 * its columns. Each is a point `FOR SYSTEM_TIME AS OF` can read the table at.
 */
export async function tableSnapshots(connection: EngineConnection, metadata: string, name: TableName, limit: number): Promise<TableSnapshot[] | undefined> {
  const found = await connection.read(
    `SELECT t.table_id, t.begin_snapshot FROM ${metadata}.ducklake_table t JOIN ${metadata}.ducklake_schema s ON s.schema_id = t.schema_id
     WHERE t.end_snapshot IS NULL AND s.end_snapshot IS NULL AND s.schema_name = $schema AND t.table_name = $table`,
    { schema: name.schema, table: name.table },
  );
  const [tableId, created] = found.getRows()[0] ?? [];
  if (tableId === undefined) return undefined;
  const reader = await connection.read(
    `WITH added AS (SELECT begin_snapshot AS snapshot_id, sum(record_count) AS added, count(*) AS files FROM ${metadata}.ducklake_data_file WHERE table_id = $id GROUP BY 1),
          retired AS (SELECT end_snapshot AS snapshot_id, sum(record_count) AS retired, count(*) AS files FROM ${metadata}.ducklake_data_file WHERE table_id = $id AND end_snapshot IS NOT NULL GROUP BY 1),
          deletes AS (SELECT begin_snapshot AS snapshot_id, sum(delete_count) AS deleted FROM ${metadata}.ducklake_delete_file WHERE table_id = $id GROUP BY 1),
          columns AS (SELECT DISTINCT begin_snapshot AS snapshot_id FROM ${metadata}.ducklake_column WHERE table_id = $id)
     SELECT s.snapshot_id, epoch_us(s.snapshot_time::TIMESTAMPTZ) AS snapshot_us,
            coalesce(added.added, 0)::BIGINT AS added, coalesce(retired.retired, 0)::BIGINT AS retired, coalesce(deletes.deleted, 0)::BIGINT AS deleted,
            columns.snapshot_id IS NOT NULL AS schema_changed
     FROM ${metadata}.ducklake_snapshot s
     LEFT JOIN added USING (snapshot_id) LEFT JOIN retired USING (snapshot_id) LEFT JOIN deletes USING (snapshot_id) LEFT JOIN columns USING (snapshot_id)
     WHERE s.snapshot_id >= $created AND (added.snapshot_id IS NOT NULL OR retired.snapshot_id IS NOT NULL OR deletes.snapshot_id IS NOT NULL OR columns.snapshot_id IS NOT NULL)
     ORDER BY s.snapshot_id DESC
     LIMIT $limit`,
    { id: Number(tableId), created: Number(created), limit },
  );
  return (reader.getRowObjectsJS() as Record<string, unknown>[]).map((row) => {
    const [added, retired, deleted] = [Number(row.added), Number(row.retired), Number(row.deleted)];
    const snapshotId = Number(row.snapshot_id);
    return {
      snapshot_id: snapshotId,
      snapshot_time: isoMicroseconds(BigInt(row.snapshot_us as bigint | number)),
      change: changeOf(snapshotId === Number(created), added, retired, deleted, row.schema_changed === true),
      rows_added: added,
      rows_removed: retired + deleted,
    };
  });
}

/**
 * A snapshot's time to the microsecond, as the catalog has it: a time read at millisecond precision
 * would fall before the snapshot, and time travel to it would read the one before.
 */
function isoMicroseconds(microseconds: bigint): string {
  const milliseconds = microseconds / 1000n;
  const rest = microseconds - milliseconds * 1000n;
  return `${new Date(Number(milliseconds)).toISOString().slice(0, 23)}${String(rest).padStart(3, '0')}Z`;
}

function changeOf(created: boolean, added: number, retired: number, deleted: number, schemaChanged: boolean): TableSnapshot['change'] {
  if (created) return 'created';
  if (retired > 0 && added === retired && deleted === 0) return 'rewrite';
  if (added > 0 && (retired > 0 || deleted > 0)) return 'update';
  if (added > 0) return 'insert';
  if (retired > 0 || deleted > 0) return 'delete';
  return schemaChanged ? 'schema' : 'rewrite';
}
