import { namedQuery } from '../../store/named-query';
import type { CatalogReader } from '../catalog-reader';
import type { LakeTableRef } from './check-query';
import type { ScanRead } from './query-profile';
import type { ReferencedColumns } from './statement-facts';

/** One live data file's bytes per column, as DuckLake's statistics record them. */
export interface FileColumnBytes {
  /** Unqualified, lower-case: what a scan's profile names. */
  table: string;
  file: string;
  column: string;
  bytes: number;
}

export interface ScanEstimate {
  bytes: number;
  /** Files are not pruned by filters in the estimate: the query reads at most this much. */
  accuracy: 'upper_bound';
}

/** Bytes per column of a table's data files as of a snapshot (paths made absolute the way DuckLake resolves them). */
const liveFileColumnBytes = namedQuery<
  { data_path: string; schema: string; table: string; snapshot: number },
  { file: string; column_name: string; bytes: number | string }
>(
  'ducklake.file_column_bytes_at_snapshot',
  `SELECT CASE WHEN f.path_is_relative THEN :data_path || s.path || t.path || f.path ELSE f.path END AS file,
          lower(c.column_name) AS column_name, CAST(sum(stats.column_size_bytes) AS BIGINT) AS bytes
   FROM {catalog}.ducklake_schema s
   JOIN {catalog}.ducklake_table t ON t.schema_id = s.schema_id AND t.begin_snapshot <= :snapshot AND (t.end_snapshot IS NULL OR t.end_snapshot > :snapshot)
   JOIN {catalog}.ducklake_data_file f ON f.table_id = t.table_id AND f.begin_snapshot <= :snapshot AND (f.end_snapshot IS NULL OR f.end_snapshot > :snapshot)
   JOIN {catalog}.ducklake_file_column_stats stats ON stats.data_file_id = f.data_file_id
   JOIN {catalog}.ducklake_column c ON c.column_id = stats.column_id AND c.table_id = t.table_id
        AND c.begin_snapshot <= :snapshot AND (c.end_snapshot IS NULL OR c.end_snapshot > :snapshot)
   WHERE s.begin_snapshot <= :snapshot AND (s.end_snapshot IS NULL OR s.end_snapshot > :snapshot)
     AND lower(s.schema_name) = :schema AND lower(t.table_name) = :table
   GROUP BY 1, 2`,
);

/**
 * Bytes a query reads, from DuckLake's per-file column statistics: the referenced tables' live data
 * files, counting only the columns the query names (all of them under `*`). No data is scanned.
 */
export class ScanSizer {
  private constructor(
    private readonly files: FileColumnBytes[],
    private readonly columns: ReferencedColumns,
  ) {}

  /**
   * The sizes of the tables' files as of the snapshot the query is planned at, read once per table
   * and snapshot (`at.fileBytes` keeps them for that snapshot): a catalog read costs about a
   * millisecond on an embedded catalog, and dashboards ask the same tables again and again.
   */
  static async load(
    catalog: CatalogReader,
    dataPath: string,
    refs: LakeTableRef[],
    columns: ReferencedColumns,
    at: { snapshot: number; fileBytes: Map<string, Promise<FileColumnBytes[]>> } | undefined,
  ): Promise<ScanSizer> {
    // A live table has no files in the lake: its source is read in place and nothing is counted for it.
    const lakeRefs = refs.filter((ref) => !ref.attached);
    if (lakeRefs.length === 0) return new ScanSizer([], columns);
    if (!at) throw new Error('sizing lake tables needs the snapshot the query is planned at');
    const known = at.fileBytes;
    const tables = new Map(lakeRefs.map((ref) => [`${ref.schema}.${ref.table}`, ref]));
    const perTable = await Promise.all(
      [...tables].map(([name, ref]) => {
        let files = known.get(name);
        if (!files) {
          files = filesAt(catalog, dataPath, ref, at.snapshot);
          known.set(name, files);
          files.catch(() => known.delete(name));
        }
        return files;
      }),
    );
    return new ScanSizer(perTable.flat(), columns);
  }

  estimate(): ScanEstimate {
    return { bytes: this.sum(() => true), accuracy: 'upper_bound' };
  }

  /**
   * The bytes of the files the query actually opened, from its profile, so that filters that pruned
   * files count. A scan whose file list the profile abbreviated counts every file of its table (a
   * direct scan of several files names no table: its table is the one its listed files belong to);
   * a query without a profile counts the estimate.
   */
  actual(scans: ScanRead[] | undefined): number {
    if (scans === undefined) return this.estimate().bytes;
    const opened = new Set(scans.flatMap((scan) => scan.files));
    const tableOf = new Map(this.files.map((entry) => [entry.file, entry.table]));
    const wholeTables = new Set(
      scans.filter((scan) => !scan.complete).flatMap((scan) => (scan.table ? [scan.table] : scan.files.map((file) => tableOf.get(file)))),
    );
    return this.sum((entry) => opened.has(entry.file) || wholeTables.has(entry.table));
  }

  private sum(include: (entry: FileColumnBytes) => boolean): number {
    const { all, names } = this.columns;
    return this.files.filter((entry) => (all || names.has(entry.column)) && include(entry)).reduce((total, entry) => total + entry.bytes, 0);
  }
}

async function filesAt(catalog: CatalogReader, dataPath: string, ref: LakeTableRef, snapshot: number): Promise<FileColumnBytes[]> {
  const rows = await catalog.all(liveFileColumnBytes, { data_path: dataPath, schema: ref.schema, table: ref.table, snapshot });
  return rows.map((row) => ({ table: ref.table, file: row.file, column: row.column_name, bytes: Number(row.bytes) }));
}
