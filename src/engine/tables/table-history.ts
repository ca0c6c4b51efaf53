import type { EngineConnection } from '../duckdb/engine-connection';
import type { TableName } from '../write/table-name';
import { sqlString } from '../sql-literals';

/** One snapshot that changed a table: what it did, who wrote it and how many records it brought. */
export interface TableSnapshot {
  snapshot_id: number;
  committed_at: string;
  /** `created`, `inserted`, `deleted`, `altered`, `dropped`, `compacted`… in DuckLake's order. */
  changes: string[];
  /** The writer's note (`push append 100 rows`, a sync's or a transform's), when it left one. */
  message: string | null;
  records_written: number | null;
}

// DuckLake's words in its snapshot log, and the plain ones the history shows.
const changeNames: Record<string, string> = {
  created_table: 'created',
  inserted_into_table: 'inserted',
  inlined_insert: 'inserted',
  deleted_from_table: 'deleted',
  inlined_delete: 'deleted',
  altered_table: 'altered',
  dropped_table: 'dropped',
  compacted_table: 'compacted',
};

/**
 * The snapshots that touched a table name, newest first, from DuckLake's own log (no data read): every
 * table that ever had the name counts, so a table rebuilt by a schema change keeps its past. Undefined
 * when no table ever had the name.
 */
export async function tableHistory(connection: EngineConnection, metadata: string, name: TableName, page: { limit: number; offset: number }): Promise<{ total: number; snapshots: TableSnapshot[] } | undefined> {
  const ids = (
    await connection.read(
      `SELECT t.table_id FROM ${metadata}.ducklake_table t JOIN ${metadata}.ducklake_schema s ON s.schema_id = t.schema_id WHERE s.schema_name = $schema AND t.table_name = $table`,
      { schema: name.schema, table: name.table },
    )
  )
    .getRows()
    .map(([id]) => String(id));
  if (ids.length === 0) return undefined;
  const created = `created_table:"${name.schema}"."${name.table}"`;
  // A first cut in SQL (DuckLake's log is one text per snapshot), the exact one below.
  const patterns = [created, ...ids.map((id) => `:${id}`)].map((pattern) => `(',' || c.changes_made || ',') LIKE ${sqlString(`%${pattern},%`)}`);
  const reader = await connection.read(
    `SELECT c.snapshot_id, epoch_us(s.snapshot_time::TIMESTAMPTZ) AS snapshot_us, c.changes_made, c.commit_message, c.commit_extra_info
     FROM ${metadata}.ducklake_snapshot_changes c JOIN ${metadata}.ducklake_snapshot s ON s.snapshot_id = c.snapshot_id
     WHERE ${patterns.join(' OR ')} ORDER BY c.snapshot_id DESC`,
  );
  const tableIds = new Set(ids);
  const touched = (reader.getRowObjectsJS() as Record<string, unknown>[]).flatMap((row) => {
    const kinds = String(row.changes_made)
      .split(',')
      .filter((change) => change === created || tableIds.has(change.slice(change.indexOf(':') + 1)))
      .map((change) => change.slice(0, change.indexOf(':')));
    return kinds.length > 0 ? [{ ...row, kinds }] : [];
  });
  return { total: touched.length, snapshots: touched.slice(page.offset, page.offset + page.limit).map(snapshotOf) };
}

function snapshotOf(row: Record<string, unknown>): TableSnapshot {
  const kinds = (row.kinds as string[]).map((kind) => changeNames[kind] ?? kind);
  const extra = typeof row.commit_extra_info === 'string' ? (JSON.parse(row.commit_extra_info) as { records_written?: unknown }) : undefined;
  return {
    snapshot_id: Number(row.snapshot_id),
    committed_at: isoMicroseconds(BigInt(row.snapshot_us as bigint | number)),
    changes: [...new Set(kinds)],
    message: typeof row.commit_message === 'string' ? row.commit_message : null,
    records_written: typeof extra?.records_written === 'number' ? extra.records_written : null,
  };
}

/**
 * A snapshot's time to the microsecond, as the catalog has it: cut to the millisecond it would fall
 * before the snapshot, and `FOR SYSTEM_TIME AS OF` it would read the table as the snapshot before left it.
 */
function isoMicroseconds(microseconds: bigint): string {
  const milliseconds = microseconds / 1000n;
  const rest = microseconds - milliseconds * 1000n;
  return `${new Date(Number(milliseconds)).toISOString().slice(0, 23)}${String(rest).padStart(3, '0')}Z`;
}
