import { namedQuery } from '../../store/named-query';
import type { CatalogReader } from '../catalog-reader';
import type { LakeTableRef } from './check-query';

type CatalogNumber = number | string | bigint | null;

/**
 * The newest snapshot, up to `:snapshot`, that changed what a query naming `schema.table` reads: the
 * schema or table created, dropped or renamed, a data or delete file added or retired (a write, a
 * delete, a compaction), a column added, dropped or retyped. Every write lands in data files (no rows
 * are inlined into the catalog), so nothing else changes a table's rows.
 */
const tableVersion = namedQuery<{ snapshot: number; schema: string; table: string }, { version: CatalogNumber; tables: CatalogNumber }>(
  'ducklake.table_version',
  `WITH named AS (
     SELECT t.table_id, t.begin_snapshot AS table_begin, t.end_snapshot AS table_end, s.begin_snapshot AS schema_begin, s.end_snapshot AS schema_end
     FROM {catalog}.ducklake_schema s
     JOIN {catalog}.ducklake_table t ON t.schema_id = s.schema_id
     WHERE lower(s.schema_name) = :schema AND lower(t.table_name) = :table AND t.begin_snapshot <= :snapshot
   ),
   changes AS (
     SELECT table_begin AS changed_at FROM named
     UNION ALL SELECT table_end FROM named
     UNION ALL SELECT schema_begin FROM named
     UNION ALL SELECT schema_end FROM named
     UNION ALL SELECT f.begin_snapshot FROM {catalog}.ducklake_data_file f WHERE f.table_id IN (SELECT table_id FROM named)
     UNION ALL SELECT f.end_snapshot FROM {catalog}.ducklake_data_file f WHERE f.table_id IN (SELECT table_id FROM named)
     UNION ALL SELECT d.begin_snapshot FROM {catalog}.ducklake_delete_file d WHERE d.table_id IN (SELECT table_id FROM named)
     UNION ALL SELECT d.end_snapshot FROM {catalog}.ducklake_delete_file d WHERE d.table_id IN (SELECT table_id FROM named)
     UNION ALL SELECT c.begin_snapshot FROM {catalog}.ducklake_column c WHERE c.table_id IN (SELECT table_id FROM named)
     UNION ALL SELECT c.end_snapshot FROM {catalog}.ducklake_column c WHERE c.table_id IN (SELECT table_id FROM named)
   )
   SELECT (SELECT max(changed_at) FROM changes WHERE changed_at <= :snapshot) AS version, (SELECT count(*) FROM named) AS tables`,
);

/**
 * The version of the data a query reads as of a snapshot: the newest snapshot up to it that changed
 * one of its tables (0 when none did, or when it reads none). A query reading the same tables at two
 * snapshots of the same version sees the same rows, so its result holds for both. Time travel reads
 * what a clause names (possibly relative to now), and a name that is no table (a view) reads what
 * it names, so a query with either has the snapshot itself.
 */
export async function tablesVersion(catalog: CatalogReader, tables: readonly LakeTableRef[], snapshot: number): Promise<number> {
  if (tables.some((table) => table.historical)) return snapshot;
  let version = 0;
  const names = new Set(tables.map((table) => `${table.schema}.${table.table}`));
  for (const ref of tables) {
    const name = `${ref.schema}.${ref.table}`;
    if (!names.delete(name)) continue;
    const [row] = await catalog.all(tableVersion, { snapshot, schema: ref.schema.toLowerCase(), table: ref.table.toLowerCase() });
    // A name that is no table of the catalog (a view, say) has no version to hold a result to.
    if (!row || Number(row.tables ?? 0) === 0) return snapshot;
    version = Math.max(version, Number(row.version ?? 0));
  }
  return version;
}
