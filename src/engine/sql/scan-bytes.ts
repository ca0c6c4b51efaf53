import type { DuckDBConnection } from '@duckdb/node-api';
import type { LakeTableRef } from './check-query';
import type { ReferencedColumns } from './referenced-columns';

/** One live data file's bytes per column, as DuckLake's statistics record them. */
interface FileColumnBytes {
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

/**
 * Bytes a query reads, from DuckLake's per-file column statistics: the referenced tables' live data
 * files, counting only the columns the query names (all of them under `*`). No data is scanned.
 */
export class ScanSizer {
  private constructor(
    private readonly files: FileColumnBytes[],
    private readonly tables: Set<string>,
    private readonly columns: ReferencedColumns,
  ) {}

  static async load(connection: DuckDBConnection, metadata: string, dataPath: string, refs: LakeTableRef[], columns: ReferencedColumns): Promise<ScanSizer> {
    const tables = new Set(refs.map((ref) => `${ref.schema}.${ref.table}`));
    if (tables.size === 0) return new ScanSizer([], tables, columns);
    const reader = await connection.runAndReadAll(
      `SELECT lower(s.schema_name) || '.' || lower(t.table_name) AS table_name,
              CASE WHEN f.path_is_relative THEN $data_path || s.path || t.path || f.path ELSE f.path END AS file,
              lower(c.column_name) AS column_name, sum(stats.column_size_bytes)::BIGINT AS bytes
       FROM ${metadata}.ducklake_data_file f
       JOIN ${metadata}.ducklake_table t ON t.table_id = f.table_id AND t.end_snapshot IS NULL
       JOIN ${metadata}.ducklake_schema s ON s.schema_id = t.schema_id AND s.end_snapshot IS NULL
       JOIN ${metadata}.ducklake_file_column_stats stats ON stats.data_file_id = f.data_file_id
       JOIN ${metadata}.ducklake_column c ON c.column_id = stats.column_id AND c.table_id = t.table_id AND c.end_snapshot IS NULL
       WHERE f.end_snapshot IS NULL
       GROUP BY ALL`,
      { data_path: dataPath },
    );
    const files = (reader.getRowObjectsJS() as Record<string, unknown>[])
      .map((row) => ({ table: String(row.table_name), file: String(row.file), column: String(row.column_name), bytes: Number(row.bytes) }))
      .filter((entry) => tables.has(entry.table));
    return new ScanSizer(files, tables, columns);
  }

  estimate(): ScanEstimate {
    return { bytes: this.sum(() => true), accuracy: 'upper_bound' };
  }

  /** The bytes of the files the query actually opened (from its profile): filters that pruned files count. */
  actual(filesRead: Set<string> | undefined): number {
    return filesRead === undefined ? this.estimate().bytes : this.sum((entry) => filesRead.has(entry.file));
  }

  private sum(include: (entry: FileColumnBytes) => boolean): number {
    const { all, names } = this.columns;
    return this.files.filter((entry) => (all || names.has(entry.column)) && include(entry)).reduce((total, entry) => total + entry.bytes, 0);
  }
}
