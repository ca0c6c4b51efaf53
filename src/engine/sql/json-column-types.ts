import { namedQuery } from '../../store/named-query';
import type { CatalogReader } from '../catalog-reader';
import type { LakeTableRef } from './check-query';
import type { QueryAnalysis, QueryAnalyzer } from './query-analyzer';

/** A table's top-level columns as of a snapshot: lower-case names and DuckLake's type names (`json`, `varchar`, `int64`…). */
const tableColumnTypes = namedQuery<{ snapshot: number; schema: string; table: string }, { name: string; type: string }>(
  'ducklake.table_column_types',
  `SELECT lower(c.column_name) AS name, c.column_type AS type
   FROM {catalog}.ducklake_schema s
   JOIN {catalog}.ducklake_table t ON t.schema_id = s.schema_id
   JOIN {catalog}.ducklake_column c ON c.table_id = t.table_id
   WHERE lower(s.schema_name) = :schema AND lower(t.table_name) = :table AND c.parent_column IS NULL
     AND s.begin_snapshot <= :snapshot AND (s.end_snapshot IS NULL OR s.end_snapshot > :snapshot)
     AND t.begin_snapshot <= :snapshot AND (t.end_snapshot IS NULL OR t.end_snapshot > :snapshot)
     AND c.begin_snapshot <= :snapshot AND (c.end_snapshot IS NULL OR c.end_snapshot > :snapshot)`,
);

/** Per `schema.table@schema_version`: whether each column is JSON; null for a name that is no table (a view). */
export type ColumnTypeCache = Map<string, Promise<ReadonlyMap<string, boolean> | null>>;

/**
 * Which of `names` (lower case) are JSON columns of the statement's lake tables, and of no table among
 * them with another type; null when a table's columns are not known here (time travel, a live
 * connection's table, a view): then no name is. Column types change only with the catalog's schema
 * version, so each table's are read once per version (`cache`, kept across snapshots).
 */
async function jsonColumnsAmong(
  catalog: CatalogReader,
  at: { snapshot: number; schemaVersion: number; columnTypes: ColumnTypeCache },
  tables: readonly LakeTableRef[],
  names: readonly string[],
): Promise<ReadonlySet<string> | null> {
  if (tables.length === 0 || tables.some((table) => table.historical || table.attached)) return null;
  const distinct = [...new Map(tables.map((table) => [`${table.schema}.${table.table}`.toLowerCase(), table])).entries()];
  const perTable = await Promise.all(
    distinct.map(([name, table]) => {
      const key = `${name}@${at.schemaVersion}`;
      let columns = at.columnTypes.get(key);
      if (!columns) {
        columns = columnsOf(catalog, table, at.snapshot);
        at.columnTypes.set(key, columns);
        columns.catch(() => at.columnTypes.delete(key));
      }
      return columns;
    }),
  );
  if (perTable.some((columns) => columns === null)) return null;
  const json = new Set<string>();
  for (const name of names) {
    const types = perTable.flatMap((columns) => (columns!.has(name) ? [columns!.get(name)!] : []));
    if (types.length > 0 && types.every(Boolean)) json.add(name);
  }
  return json;
}

async function columnsOf(catalog: CatalogReader, table: LakeTableRef, snapshot: number): Promise<ReadonlyMap<string, boolean> | null> {
  const rows = await catalog.all(tableColumnTypes, { snapshot, schema: table.schema.toLowerCase(), table: table.table.toLowerCase() });
  return rows.length === 0 ? null : new Map(rows.map((row) => [row.name, row.type.toLowerCase() === 'json']));
}

/**
 * The statement's analysis with its tables' JSON columns read as jsonb, when a reference to one is
 * where that changes its translation; the analysis as it was otherwise (most statements: no table of
 * theirs has a JSON column of a name they use so, and they pay a lookup in `at.columnTypes`).
 */
export async function withJsonColumns(
  analyzer: QueryAnalyzer,
  catalog: CatalogReader,
  query: { workspaceId: string; sql: string; analysis: QueryAnalysis; tables: readonly LakeTableRef[] },
  at: { snapshot: number; schemaVersion: number; columnTypes: ColumnTypeCache } | undefined,
): Promise<QueryAnalysis> {
  if (query.analysis.jsonbReferences.length === 0 || !at) return query.analysis;
  const json = await jsonColumnsAmong(catalog, at, query.tables, query.analysis.jsonbReferences);
  return json && json.size > 0 ? analyzer.analyze(query.workspaceId, query.sql, json) : query.analysis;
}
