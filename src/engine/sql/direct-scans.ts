import type { EngineConnection } from '../duckdb/engine-connection';
import { namedQuery } from '../../store/named-query';
import { workspaceDataPath } from '../catalog-attachment';
import { sqlIdentifier, sqlString } from '../sql-literals';
import { lakeAlias } from '../catalog-names';
import { type WorkspaceEngine } from '../workspace-engine';
import type { LakeTableRef } from './check-query';
import type { AstNode, AstValue } from './parse-query';
import type { QueryAnalysis } from './query-analyzer';
import { planTableScans, tableSubquerySql } from './scan-rewrite';
import type { SqlParser } from './sql-parser';
import type { FileColumnBytes } from './scan-bytes';
import type { ColumnTypeCache } from './json-column-types';
import { CatalogChangeWatch, type CatalogObservation } from '../catalog-change-watch';

/** Entries each of a workspace's plan caches keeps. */
const cacheCapacity = 500;
/** Checks of files' columns a workspace keeps (a table of many files needs one per file). */
const fileCheckCapacity = 5000;

type Column = readonly [name: string, type: string];

type CatalogNumber = number | string | bigint;
type CatalogFlag = boolean | number | string;

/** One pass over the snapshots (an embedded catalog is scanned through DuckDB's SQLite, which a second pass for max() made a third slower). */
const currentSnapshot = namedQuery<Record<never, never>, { snapshot_id: CatalogNumber; schema_version: CatalogNumber }>(
  'ducklake.current_snapshot',
  'SELECT snapshot_id, schema_version FROM {catalog}.ducklake_snapshot ORDER BY snapshot_id DESC LIMIT 1',
);

/**
 * The table as of the snapshot, and whether anything makes its files differ from its rows: live delete
 * files, a column added, dropped, renamed or retyped since the table was created (older files then
 * hold other columns), partitioning, or rows inlined into the catalog. A renamed table (a full refresh
 * swaps its staging table in so) keeps its id and columns under a newer row: it was created with the
 * oldest row of its id.
 */
const tableAtSnapshot = namedQuery<
  { snapshot: number; schema: string; table: string },
  {
    table_id: CatalogNumber;
    schema_path: string;
    schema_path_is_relative: CatalogFlag;
    table_path: string;
    table_path_is_relative: CatalogFlag;
    changed: CatalogNumber;
  }
>(
  'ducklake.table_at_snapshot',
  `SELECT t.table_id, s.path AS schema_path, s.path_is_relative AS schema_path_is_relative, t.path AS table_path, t.path_is_relative AS table_path_is_relative,
          CASE WHEN EXISTS (SELECT 1 FROM {catalog}.ducklake_delete_file d
                            WHERE d.table_id = t.table_id AND d.begin_snapshot <= :snapshot AND (d.end_snapshot IS NULL OR d.end_snapshot > :snapshot))
                 OR EXISTS (SELECT 1 FROM {catalog}.ducklake_column c
                            WHERE c.table_id = t.table_id AND (c.end_snapshot IS NOT NULL OR c.begin_snapshot <> (
                              SELECT min(created.begin_snapshot) FROM {catalog}.ducklake_table created WHERE created.table_id = t.table_id)))
                 OR EXISTS (SELECT 1 FROM {catalog}.ducklake_partition_info p WHERE p.table_id = t.table_id)
                 OR EXISTS (SELECT 1 FROM {catalog}.ducklake_inlined_data_tables i WHERE i.table_id = t.table_id)
               THEN 1 ELSE 0 END AS changed
   FROM {catalog}.ducklake_schema s
   JOIN {catalog}.ducklake_table t ON t.schema_id = s.schema_id
   WHERE lower(s.schema_name) = :schema AND lower(t.table_name) = :table
     AND s.begin_snapshot <= :snapshot AND (s.end_snapshot IS NULL OR s.end_snapshot > :snapshot)
     AND t.begin_snapshot <= :snapshot AND (t.end_snapshot IS NULL OR t.end_snapshot > :snapshot)`,
);

/** The table's data files as of the snapshot; `plain` when DuckLake reads the file as it is (no key, no name mapping, no partition). */
const filesAtSnapshot = namedQuery<
  { snapshot: number; table_id: number; limit: number },
  { path: string; path_is_relative: CatalogFlag; plain: CatalogNumber; later: CatalogNumber }
>(
  'ducklake.files_at_snapshot',
  `SELECT f.path, f.path_is_relative,
          CASE WHEN f.encryption_key IS NULL AND f.mapping_id IS NULL AND f.partition_id IS NULL THEN 1 ELSE 0 END AS plain,
          CASE WHEN f.data_file_id >= s.next_file_id THEN 1 ELSE 0 END AS later
   FROM {catalog}.ducklake_data_file f
   JOIN {catalog}.ducklake_snapshot s ON s.snapshot_id = :snapshot
   WHERE f.table_id = :table_id AND f.begin_snapshot <= :snapshot AND (f.end_snapshot IS NULL OR f.end_snapshot > :snapshot)
   ORDER BY f.data_file_id
   LIMIT :limit`,
);

/**
 * A table of more files than this stays with DuckLake: the list is part of the query's text, and
 * maintenance brings a table back to a few files anyway.
 */
const maxDirectFiles = 64;

/**
 * Whether a filter or join of the statement could let DuckLake skip whole files by their statistics
 * (a WHERE or QUALIFY anywhere, or any join, whose filters DuckDB pushes into the scans). DuckLake
 * never opens a skipped file and the query is billed only for the files it opened, while a direct
 * scan opens every file of its list: such a statement reads a table of several files through DuckLake,
 * so that it is billed the same either way.
 */
function mayPruneFiles(node: AstValue): boolean {
  if (Array.isArray(node)) return node.some(mayPruneFiles);
  if (node === null || typeof node !== 'object') return false;
  if ((node.where_clause ?? null) !== null || (node.qualify ?? null) !== null || node.type === 'JOIN') return true;
  return Object.values(node).some(mayPruneFiles);
}

/**
 * Columns DuckLake adds to a file it merged from files of several snapshots: each row's id and the
 * snapshot it was written in, so that time travel reads the same rows as before the merge. A file that
 * existed at the plan's snapshot holds only rows of that snapshot or older, so a direct scan leaves
 * them out. (A file written after the plan's snapshot is left to DuckLake: see filesAtSnapshot.)
 */
const internalColumnPrefix = '_ducklake_internal_';

export interface PlannedQuery {
  /** The SQL to run: the query with every table it can read directly swapped for a scan of its files. */
  sql: string;
  /** Whether the query still reads through DuckLake (time travel, or a table it has to read itself). */
  readsLake: boolean;
}

/** One workspace's plans, valid for one snapshot of its catalog. */
export interface WorkspacePlans {
  snapshot: number;
  schemaVersion: number;
  /** Per `schema.table`: the subquery reading its files, or null when DuckLake has to read it. */
  scans: Map<string, Promise<AstNode | null>>;
  rewritten: Map<string, Promise<PlannedQuery>>;
  shapes?: Promise<{ tableSubquery: AstNode; pinnedSnapshot: AstNode }>;
  /**
   * Per `table_id@schema_version`: the table's columns and their types; per `table_id@schema_version:path`:
   * the columns a file adds after them (DuckLake's own, see internalColumnPrefix), or null when the
   * file does not read back with the table's names and types.
   */
  fileColumns: Map<string, Promise<Column[] | null>>;
  /** Per `schema.table`: its live files' bytes per column, for the scan estimate. */
  fileBytes: Map<string, Promise<FileColumnBytes[]>>;
  /** Per `schema.table@schema_version`: which of its columns are JSON (see json-column-types.ts). */
  columnTypes: ColumnTypeCache;
  /** How an embedded catalog's files looked just before this snapshot was read (see CatalogChangeWatch). */
  observed?: CatalogObservation;
}

/**
 * DuckLake reads its catalog again for every table a query scans (the snapshot, then each table's
 * files and their statistics, through the catalog database's scanner): 5 to 10 ms a scan, a fifth
 * of a typical analytical query. When a table's rows are exactly its data files (no deletes, no
 * schema change since it was created, no partitioning, nothing inlined, at most maxDirectFiles
 * files), its scan can read those files directly, as DuckLake itself would: the list comes from the
 * catalog's own driver, once per snapshot, and the scan is a subquery naming the table's columns, so
 * nothing else of the files is reachable. Time travel and every other table stay with DuckLake.
 */
export class DirectScans {
  private readonly plans = new WeakMap<WorkspaceEngine, WorkspacePlans>();
  /** Queries that read no lake table but name CTEs, as they run (see planTableScans): they need no snapshot. */
  private readonly withoutTables = new WeakMap<QueryAnalysis, Promise<string>>();

  constructor(private readonly parser: SqlParser) {}

  /**
   * What is known of the workspace's tables as of the catalog's current snapshot: one indexed read, or
   * none when an embedded catalog's files show no commit since the last one.
   */
  async current(engine: WorkspaceEngine): Promise<WorkspacePlans> {
    const observed = engine.catalogChanges?.observe();
    const known = this.plans.get(engine);
    if (known && observed && CatalogChangeWatch.unchanged(known.observed, observed)) return known;
    const [snapshot] = await engine.catalog.all(currentSnapshot, {});
    const plans = this.plansAt(engine, Number(snapshot?.snapshot_id ?? -1), Number(snapshot?.schema_version ?? -1));
    // Taken before the read, so any commit the read did not see changes what the next look finds.
    if (observed && (!plans.observed || observed.observedAt > plans.observed.observedAt)) plans.observed = observed;
    return plans;
  }

  /** `plans` is what `current` gave for this query, so the whole query is planned at one snapshot. */
  async plan(
    engine: WorkspaceEngine,
    connection: EngineConnection,
    query: QueryAnalysis,
    tables: LakeTableRef[],
    plans: WorkspacePlans | undefined,
  ): Promise<PlannedQuery> {
    if (tables.length === 0 || !plans) return { sql: await this.withoutLakeTables(query), readsLake: false };
    let planned = plans.rewritten.get(query.sql);
    if (!planned) {
      planned = this.rewrite(engine, connection, plans, query, tables);
      remember(plans.rewritten, query.sql, planned);
      if (plans.rewritten.size > cacheCapacity) plans.rewritten.delete(plans.rewritten.keys().next().value!);
    }
    return planned;
  }

  private withoutLakeTables(query: QueryAnalysis): Promise<string> {
    if (query.facts.ctes.length === 0) return Promise.resolve(query.sql);
    let planned = this.withoutTables.get(query);
    if (!planned) {
      planned = this.parser.unparse(planTableScans(query.ast, query.facts, undefined, () => undefined).json);
      this.withoutTables.set(query, planned);
      planned.catch(() => this.withoutTables.delete(query));
    }
    return planned;
  }

  private plansAt(engine: WorkspaceEngine, snapshot: number, schemaVersion: number): WorkspacePlans {
    const current = this.plans.get(engine);
    if (current?.snapshot === snapshot) return current;
    // Column types only change with the schema version, so those checks outlive the snapshot.
    // Files never change, so the check of each file's columns outlives the snapshot too.
    const fileColumns = current && current.fileColumns.size < fileCheckCapacity ? current.fileColumns : new Map<string, Promise<Column[] | null>>();
    const columnTypes: ColumnTypeCache = current && current.columnTypes.size < cacheCapacity ? current.columnTypes : new Map();
    const plans: WorkspacePlans = { snapshot, schemaVersion, scans: new Map(), rewritten: new Map(), fileColumns, fileBytes: new Map(), columnTypes };
    this.plans.set(engine, plans);
    return plans;
  }

  private async rewrite(
    engine: WorkspaceEngine,
    connection: EngineConnection,
    plans: WorkspacePlans,
    query: QueryAnalysis,
    tables: LakeTableRef[],
  ): Promise<PlannedQuery> {
    const scans = new Map<string, AstNode | null>();
    const severalFiles = !mayPruneFiles(query.ast);
    for (const ref of tables.filter((table) => !table.historical && !table.attached)) {
      const name = `${ref.schema}.${ref.table}`;
      if (scans.has(name)) continue;
      const key = severalFiles ? `${name} (several files)` : name;
      let scan = plans.scans.get(key);
      if (!scan) {
        scan = this.directScan(engine, connection, plans, ref, severalFiles ? maxDirectFiles : 1);
        remember(plans.scans, key, scan);
      }
      scans.set(name, await scan);
    }
    const shapes = await this.shapesAt(plans);
    // A query that reads some tables directly and others through DuckLake reads them all at the snapshot of the plan.
    const mixed = [...scans.values()].some(Boolean) && [...scans.values()].some((scan) => !scan);
    const pinnedSnapshot = mixed ? shapes.pinnedSnapshot : undefined;
    const attached = new Map(tables.filter((table) => table.attached).map((table) => [`${table.schema}.${table.table}`, table.attached!]));
    const { json, readsLake } = planTableScans(
      query.ast,
      query.facts,
      { tableSubquery: shapes.tableSubquery, pinnedSnapshot },
      (name) => scans.get(name) ?? undefined,
      (name) => attached.get(name),
    );
    return { sql: await this.parser.unparse(json), readsLake };
  }

  /** The tree shapes planTableScans builds from: a subquery over a table, and an `AT` clause naming the plan's snapshot. */
  private shapesAt(plans: WorkspacePlans): Promise<{ tableSubquery: AstNode; pinnedSnapshot: AstNode }> {
    plans.shapes ??= this.parser.parse(tableSubquerySql(plans.snapshot), false).then((parsed) => {
      const tableSubquery = parsed.from_table as AstNode;
      const inner = ((tableSubquery.subquery as AstNode).node as AstNode).from_table as AstNode;
      return { tableSubquery, pinnedSnapshot: inner.at_clause as AstNode };
    });
    plans.shapes.catch(() => (plans.shapes = undefined));
    return plans.shapes;
  }

  /**
   * The subquery reading the table's files, or null when only DuckLake reads the table right. Files
   * of one layout are read by one `read_parquet` of their list; a file DuckLake merged carries its own
   * columns after the table's, so files with and without them are read apart and their rows joined.
   */
  private async directScan(
    engine: WorkspaceEngine,
    connection: EngineConnection,
    plans: WorkspacePlans,
    ref: LakeTableRef,
    maxFiles: number,
  ): Promise<AstNode | null> {
    const { snapshot, schemaVersion } = plans;
    const [table] = await engine.catalog.all(tableAtSnapshot, { snapshot, schema: ref.schema, table: ref.table });
    if (!table || Number(table.changed) !== 0) return null;
    const tableId = Number(table.table_id);
    const files = await engine.catalog.all(filesAtSnapshot, { snapshot, table_id: tableId, limit: maxFiles + 1 });
    // A merge lists its file from the snapshot of the file's oldest rows on and removes the files it
    // replaced: a plan whose snapshot was read just before a merge finds the merged file, and its newer
    // rows, when it lists the files just after. Files written after the plan's snapshot go to DuckLake.
    if (files.length === 0 || files.length > maxFiles || files.some((file) => Number(file.plain) !== 1 || Number(file.later) !== 0)) return null;
    const schemaPath = isTrue(table.schema_path_is_relative) ? `${workspaceDataPath(engine.location)}${table.schema_path}` : table.schema_path;
    const tablePath = isTrue(table.table_path_is_relative) ? `${schemaPath}${table.table_path}` : table.table_path;
    const paths = files.map((file) => (isTrue(file.path_is_relative) ? `${tablePath}${file.path}` : file.path));
    const tableKey = `${tableId}@${schemaVersion}`;
    const declared = await this.checked(plans, tableKey, () => declaredColumns(connection, ref));
    if (!declared) return null;
    const layouts = new Map<string, string[]>();
    for (const path of paths) {
      const extra = await this.checked(plans, `${tableKey}:${path}`, () => extraColumns(connection, declared, path));
      if (!extra) return null;
      const layout = extra.map(([name, type]) => `${name} ${type}`).join(', ');
      layouts.set(layout, [...(layouts.get(layout) ?? []), path]);
    }
    const columns = declared.map(([name]) => sqlIdentifier(name)).join(', ');
    const reads = [...layouts.values()].map((group) => {
      const source = group.length === 1 ? sqlString(group[0]!) : `[${group.map(sqlString).join(', ')}]`;
      return `SELECT ${columns} FROM system.main.read_parquet(${source})`;
    });
    const parsed = await this.parser.parse(`SELECT * FROM (${reads.join(' UNION ALL ')}) AS scan`, false);
    return parsed.from_table as AstNode;
  }

  private checked(plans: WorkspacePlans, key: string, check: () => Promise<Column[] | null>): Promise<Column[] | null> {
    let answer = plans.fileColumns.get(key);
    if (!answer) {
      answer = check();
      remember(plans.fileColumns, key, answer);
    }
    return answer;
  }
}

const describe = async (connection: EngineConnection, relation: string): Promise<Column[]> =>
  (await connection.read(`DESCRIBE ${relation}`)).getRows().map(([name, type]) => [String(name), String(type)] as const);

function declaredColumns(connection: EngineConnection, ref: LakeTableRef): Promise<Column[]> {
  return describe(connection, `${lakeAlias}.${sqlIdentifier(ref.schema)}.${sqlIdentifier(ref.table)}`);
}

/**
 * The columns the file holds after the table's own (DuckLake's, of a merged file), when it holds the
 * table's columns first, with their names and types in order; else null: a type that Parquet cannot
 * hold as DuckDB declares it, or a file of another layout, is left to DuckLake.
 */
async function extraColumns(connection: EngineConnection, declared: Column[], file: string): Promise<Column[] | null> {
  const stored = await describe(connection, `SELECT * FROM system.main.read_parquet(${sqlString(file)})`);
  const same = stored.length >= declared.length && declared.every(([name, type], index) => stored[index]![0] === name && stored[index]![1] === type);
  const extra = stored.slice(declared.length);
  return same && extra.every(([name]) => name.startsWith(internalColumnPrefix)) ? extra : null;
}

/** Keeps a pending answer for the queries that ask the same meanwhile; a failure is dropped, so the next query asks again. */
function remember<T>(answers: Map<string, Promise<T>>, key: string, answer: Promise<T>): void {
  answers.set(key, answer);
  answer.catch(() => {
    if (answers.get(key) === answer) answers.delete(key);
  });
}

function isTrue(flag: CatalogFlag): boolean {
  return flag === true || flag === 't' || Number(flag) === 1;
}
