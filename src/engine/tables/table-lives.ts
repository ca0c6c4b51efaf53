import type { EngineConnection } from '../duckdb/engine-connection';
import type { TableName } from '../write/table-name';
import { sqlString } from '../sql-literals';
import { isoMicroseconds, snapshotTimeSql } from './snapshot-time';

/**
 * The lives of table names in DuckLake's catalog, as time travel can read them: the CTEs `named` (every
 * table the catalog ever held under a name, from its first snapshot to the one that dropped it) and
 * `lives` (per name: the snapshot its current life began at, whether it lives now, whether an earlier
 * life came before, and the earliest time, in microseconds, that `FOR SYSTEM_TIME AS OF` reads it at).
 *
 * Tables that follow each other under a name in the same snapshot are one life: a sync's swap, a
 * transform's replace, a rebuild for a wider type keep the name's past readable. A drop that leaves the
 * name free ends it: the service deletes a dropped table's files with it (TablesService.drop), so a
 * table created under the name again starts a past of its own, and a name no table holds now has none.
 * Maintenance expires old snapshots: a life is readable from its first snapshot still kept.
 * `where` narrows the names, on the aliases `s` (schema) and `t` (table).
 */
export function tableLivesSql(metadata: string, where = 'true'): string {
  return `named AS (
       SELECT s.schema_name, t.table_name, t.table_id, t.begin_snapshot, coalesce(t.end_snapshot, s.end_snapshot) AS end_snapshot
       FROM ${metadata}.ducklake_table t JOIN ${metadata}.ducklake_schema s ON s.schema_id = t.schema_id
       WHERE ${where}
     ),
     starts AS (
       SELECT n.*, NOT EXISTS (SELECT 1 FROM named p WHERE p.schema_name = n.schema_name AND p.table_name = n.table_name AND p.end_snapshot = n.begin_snapshot AND p.begin_snapshot < n.begin_snapshot) AS starts_life
       FROM named n
     ),
     life_starts AS (
       SELECT schema_name, table_name, max(begin_snapshot) FILTER (WHERE starts_life) AS first_snapshot,
              count(*) FILTER (WHERE starts_life) > 1 AS earlier_lives, bool_or(end_snapshot IS NULL) AS live
       FROM starts GROUP BY schema_name, table_name
     ),
     lives AS (
       SELECT l.*, (SELECT min(${snapshotTimeSql('snapshot_time')}) FROM ${metadata}.ducklake_snapshot WHERE snapshot_id >= l.first_snapshot) AS since_us
       FROM life_starts l
     )`;
}

/** How far back time travel reaches for one table name. */
export interface TableReach {
  schema: string;
  table: string;
  /** The earliest time that reads it, to the microsecond; undefined when no table holds the name now. */
  earliest: string | undefined;
  /** Whether the name had a table before its current life (or before it was dropped), its files deleted since. */
  earlierLives: boolean;
}

/** The reach of each of the names the catalog ever held (one read of the catalog's own tables, no data). */
export async function timeTravelReach(connection: EngineConnection, metadata: string, names: readonly TableName[]): Promise<TableReach[]> {
  if (names.length === 0) return [];
  const wanted = names.map((name) => sqlString(`${name.schema}.${name.table}`.toLowerCase())).join(', ');
  const reader = await connection.read(
    `WITH ${tableLivesSql(metadata, `lower(s.schema_name) || '.' || lower(t.table_name) IN (${wanted})`)}
     SELECT schema_name, table_name, live, earlier_lives, since_us FROM lives ORDER BY schema_name, table_name`,
  );
  return (reader.getRowObjectsJS() as Record<string, unknown>[]).map((row) => ({
    schema: String(row.schema_name),
    table: String(row.table_name),
    earliest: row.live === true && row.since_us !== null ? isoMicroseconds(row.since_us) : undefined,
    earlierLives: row.earlier_lives === true,
  }));
}
