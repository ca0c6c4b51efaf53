import { namedQuery } from '../../store/named-query';
import type { CatalogReader } from '../catalog-reader';

/** When a table's files warrant maintenance before its schedule comes round. 0 turns a rule off. */
export interface MaintenanceThresholds {
  /** Live data files smaller than the target size, per table: what merging would fold together. */
  smallFiles: number;
  /** Live delete files per table: each one is read and applied by every scan of its data file. */
  deleteFiles: number;
  /** A file below this size is small (the maintenance's target file size). */
  targetFileSizeBytes: number;
}

interface TableFileCounts {
  /** `<schema>.<table>`, lower case. */
  table: string;
  smallFiles: number;
  smallBytes: number;
  deleteFiles: number;
}

/** One live table's small live data files (count and bytes) and live delete files. */
const liveFileCounts = namedQuery<
  { small_below: number; schema: string; table: string },
  { schema_name: string; table_name: string; small_files: number | string; small_bytes: number | string | null; delete_files: number | string }
>(
  'ducklake.live_file_counts',
  `SELECT s.schema_name, t.table_name,
          (SELECT count(*) FROM {catalog}.ducklake_data_file f
            WHERE f.table_id = t.table_id AND f.end_snapshot IS NULL AND f.file_size_bytes < :small_below) AS small_files,
          (SELECT sum(f.file_size_bytes) FROM {catalog}.ducklake_data_file f
            WHERE f.table_id = t.table_id AND f.end_snapshot IS NULL AND f.file_size_bytes < :small_below) AS small_bytes,
          (SELECT count(*) FROM {catalog}.ducklake_delete_file d WHERE d.table_id = t.table_id AND d.end_snapshot IS NULL) AS delete_files
   FROM {catalog}.ducklake_table t JOIN {catalog}.ducklake_schema s ON s.schema_id = t.schema_id
   WHERE t.end_snapshot IS NULL AND s.end_snapshot IS NULL AND lower(s.schema_name) = :schema AND lower(t.table_name) = :table`,
);

/**
 * The tables among `tables` whose small files or delete files have reached the thresholds, read from
 * DuckLake's catalog (no data is scanned: a catalog read of about a millisecond).
 */
export async function tablesNeedingMaintenance(
  catalog: CatalogReader,
  tables: readonly string[],
  thresholds: MaintenanceThresholds,
): Promise<TableFileCounts[]> {
  if (tables.length === 0 || (thresholds.smallFiles <= 0 && thresholds.deleteFiles <= 0)) return [];
  const rows = [];
  for (const name of new Set(tables.map((table) => table.toLowerCase()))) {
    const dot = name.indexOf('.');
    if (dot < 0) continue;
    rows.push(...(await catalog.all(liveFileCounts, { small_below: thresholds.targetFileSizeBytes, schema: name.slice(0, dot), table: name.slice(dot + 1) })));
  }
  return rows
    .map((row) => ({
      table: `${row.schema_name}.${row.table_name}`.toLowerCase(),
      smallFiles: Number(row.small_files),
      smallBytes: Number(row.small_bytes ?? 0),
      deleteFiles: Number(row.delete_files),
    }))
    .filter((counts) => crosses(counts, thresholds));
}

function crosses(counts: TableFileCounts, thresholds: MaintenanceThresholds): boolean {
  // One small file is what every table starts with: merging needs at least two.
  const manySmall = thresholds.smallFiles > 0 && counts.smallFiles >= Math.max(2, thresholds.smallFiles);
  const manyDeletes = thresholds.deleteFiles > 0 && counts.deleteFiles >= thresholds.deleteFiles;
  return manySmall || manyDeletes;
}
