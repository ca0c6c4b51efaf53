import type { EngineConnection } from '../duckdb/engine-connection';
import type { TableName } from '../write/table-name';
import { sqlString } from '../sql-literals';
import { isoMicroseconds, snapshotTimeSql } from './snapshot-time';
import { tableLivesSql } from './table-lives';

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
 * The snapshots that touched a table name in its current life (see tableLivesSql), newest first, from
 * DuckLake's own log (no data read): every table that had the name in that life counts, so a table
 * rebuilt by a schema change keeps its past, and each snapshot's time reads the table as it left it.
 * Undefined when no table holds the name now.
 */
export async function tableHistory(
  connection: EngineConnection,
  metadata: string,
  name: TableName,
  page: { limit: number; offset: number },
): Promise<{ total: number; snapshots: TableSnapshot[] } | undefined> {
  const life = (
    await connection.read(
      `WITH ${tableLivesSql(metadata, 's.schema_name = $schema AND t.table_name = $table')}
       SELECT lives.first_snapshot, named.table_id FROM lives JOIN named USING (schema_name, table_name)
       WHERE lives.live AND named.begin_snapshot >= lives.first_snapshot`,
      { schema: name.schema, table: name.table },
    )
  ).getRows();
  if (life.length === 0) return undefined;
  const firstSnapshot = Number(life[0]![0]);
  const ids = life.map(([, id]) => String(id));
  const created = `created_table:"${name.schema}"."${name.table}"`;
  // A first cut in SQL (DuckLake's log is one text per snapshot), the exact one below.
  const patterns = [created, ...ids.map((id) => `:${id}`)].map((pattern) => `(',' || c.changes_made || ',') LIKE ${sqlString(`%${pattern},%`)}`);
  const reader = await connection.read(
    `SELECT c.snapshot_id, ${snapshotTimeSql('s.snapshot_time')} AS snapshot_us, c.changes_made, c.commit_message, c.commit_extra_info
     FROM ${metadata}.ducklake_snapshot_changes c JOIN ${metadata}.ducklake_snapshot s ON s.snapshot_id = c.snapshot_id
     WHERE c.snapshot_id >= ${firstSnapshot} AND (${patterns.join(' OR ')}) ORDER BY c.snapshot_id DESC`,
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
    committed_at: isoMicroseconds(row.snapshot_us),
    changes: [...new Set(kinds)],
    message: typeof row.commit_message === 'string' ? row.commit_message : null,
    records_written: typeof extra?.records_written === 'number' ? extra.records_written : null,
  };
}
