import type { Store } from '../../store/store';
import type { Clock } from '../../util/clock';
import { KeyedMutex } from '../../util/keyed-mutex';
import { namedQuery } from '../../store/named-query';
import type { Admission } from '../admission/statement-scheduler';
import { lakeAlias } from '../catalog-names';
import { workspaceDataPath } from '../catalog-attachment';
import type { EngineManager } from '../engine-manager';
import type { EngineConnection } from '../duckdb/engine-connection';
import { isCommitConflict } from '../duckdb/duckdb-error';
import { sqlIdentifier, sqlString } from '../sql-literals';
import { checkQuery, type LakeTableRef } from '../sql/check-query';
import { mapDuckDBError } from '../sql/map-duckdb-error';
import { timeTravelContext } from '../sql/time-travel-errors';
import type { AstNode } from '../sql/parse-query';
import type { QueryAnalysis, QueryAnalyzer } from '../sql/query-analyzer';
import { withJsonColumns } from '../sql/json-column-types';
import { ScanSizer } from '../sql/scan-bytes';
import { planTableScans, tableSubquerySql } from '../sql/scan-rewrite';
import type { SqlParser } from '../sql/sql-parser';
import { TableRegistry } from '../tables/table-registry';
import type { WorkspaceEngine } from '../workspace-engine';
import { findCommittedSnapshot } from './committed-write';
import { qualifiedName, type TableName } from './table-name';
import type { DirectScans } from '../sql/direct-scans';

export type Materialization = 'table' | 'view' | 'incremental';

export interface MaterializeRequest {
  /** The tenant's SQL, in the Postgres dialect: checked by the query pipeline before anything runs. */
  sql: string;
  target: TableName;
  materialization: Materialization;
  /** The columns an incremental materialisation merges on. */
  uniqueKey: string[];
  /** Recorded with the snapshot; a retried write that finds it committed does not write again. */
  commitInfo: Record<string, string>;
  /** An earlier attempt of this write may have committed (a retry): look for its commit first. */
  retried: boolean;
  /** Who writes, for the snapshot's commit message. */
  label: string;
  timeoutMs: number;
  signal?: AbortSignal;
  admission?: Admission;
}

export interface Materialized {
  rowsWritten: number;
  /** The snapshot the write made. */
  snapshotId: number;
  /** A snapshot no newer than the one the statement read its inputs at. */
  inputSnapshotId: number;
  /** What the statement could read at most, from DuckLake's file statistics. */
  bytesScanned: number;
  /** The DuckDB SQL the Postgres dialect was translated to; null when it ran as written. */
  translatedSql: string | null;
  elapsedMs: number;
  /** The write had committed in an earlier attempt; this one found it and wrote nothing. */
  alreadyCommitted: boolean;
}

/** Whether the target exists now, and as what. */
const targetKind = namedQuery<{ schema: string; table: string }, { kind: string }>(
  'ducklake.relation_kind',
  `SELECT 'table' AS kind FROM {catalog}.ducklake_table t JOIN {catalog}.ducklake_schema s ON s.schema_id = t.schema_id
   WHERE t.end_snapshot IS NULL AND s.end_snapshot IS NULL AND lower(s.schema_name) = :schema AND lower(t.table_name) = :table
   UNION ALL
   SELECT 'view' AS kind FROM {catalog}.ducklake_view v JOIN {catalog}.ducklake_schema s ON s.schema_id = v.schema_id
   WHERE v.end_snapshot IS NULL AND s.end_snapshot IS NULL AND lower(s.schema_name) = :schema AND lower(v.view_name) = :table`,
);

const latestSnapshot = namedQuery<Record<never, never>, { snapshot_id: number | string | bigint | null }>(
  'ducklake.latest_snapshot',
  'SELECT max(snapshot_id) AS snapshot_id FROM {catalog}.ducklake_snapshot',
);

/** Snapshots after a given one whose commit information holds a text: the write just committed is among the few. */
const snapshotsSince = namedQuery<{ after: number; needle: string }, { snapshot_id: number | string | bigint; commit_extra_info: string }>(
  'ducklake.snapshots_since_with_info',
  `SELECT snapshot_id, commit_extra_info FROM {catalog}.ducklake_snapshot_changes
   WHERE snapshot_id > :after AND commit_extra_info LIKE :needle ORDER BY snapshot_id DESC`,
);

/** The id of the snapshot a write just made, found by its commit information among those after its input snapshot. */
async function committedSnapshot(engine: WorkspaceEngine, after: number, info: Record<string, unknown>): Promise<number> {
  const [field, value] = Object.entries(info)[0]!;
  const rows = await engine.catalog.all(snapshotsSince, { after, needle: `%${JSON.stringify(value)}%` });
  const row = rows.find((candidate) => (JSON.parse(candidate.commit_extra_info) as Record<string, unknown>)[field] === value);
  if (!row) throw new Error('the write committed but its snapshot is not in the catalog');
  return Number(row.snapshot_id);
}

const maxAttempts = 5;

/**
 * Materialises a tenant's read statement into a lake table or view, as exactly one DuckLake snapshot
 * that carries the writer's commit information. The SQL goes through the query pipeline first (the
 * Postgres translation, DuckDB's own parse, the function policy, the input limits, every table resolved
 * in the workspace's catalog), and runs on the workspace's locked instance, its background lane, with
 * every table reference rewritten as the query path does (a subquery offering the table's own columns).
 */
export class QueryMaterializer {
  private tableSubquery: Promise<AstNode> | undefined;
  /**
   * On an embedded SQLite catalog a write transaction cannot commit once another write has committed
   * since it began (SQLite refuses to upgrade its stale read snapshot: "database is locked"), so a
   * long materialisation would lose to every shorter one beside it and run again. There, one
   * workspace's materialisations take turns; on a Postgres catalog they run side by side.
   */
  private readonly embeddedWrites = new KeyedMutex();

  constructor(
    private readonly engines: EngineManager,
    private readonly analyzer: QueryAnalyzer,
    private readonly parser: SqlParser,
    private readonly store: Store,
    private readonly clock: Clock,
    /** The snapshot a materialisation is sized at, and the file sizes already read for it. */
    private readonly directScans: DirectScans,
  ) {}

  /**
   * Checks SQL that will be materialised later: one read statement whose every table is one of the
   * workspace's or one of `pending` (tables other transforms will write). When every table exists, it
   * is also bound, so a missing column is found now, within the tenant's `admission`. Returns the
   * `schema.table` names it reads.
   */
  async check(workspaceId: string, sql: string, pending: ReadonlySet<string>, admission?: Admission): Promise<string[]> {
    const analysis = await this.analyzer.analyze(workspaceId, sql);
    return this.engines.with(workspaceId, async (engine) => {
      const known = await engine.tableNames.resolve(engine.catalog, analysis.wantedTables, analysis.timeTravel);
      const awaited = (name: string) => pending.has(name) && !known.live.has(name);
      const existing = analysis.facts.tables.filter(
        (reference) => !(awaited(reference.qualified) && !reference.historical && (reference.catalog === '' || reference.catalog === lakeAlias)),
      );
      const tables = checkQuery({ ...analysis.facts, tables: existing }, known);
      if (existing.length === analysis.facts.tables.length) await this.bind(engine, analysis, tables, admission);
      return [...new Set(analysis.facts.tables.map((reference) => reference.qualified))];
    });
  }

  async materialize(workspaceId: string, request: MaterializeRequest): Promise<Materialized> {
    const startedAt = performance.now();
    const deadline = startedAt + request.timeoutMs;
    const asWritten = await this.analyzer.analyze(workspaceId, request.sql);
    return this.engines.with(
      workspaceId,
      async (engine) => {
        const tables = checkQuery(asWritten.facts, await engine.tableNames.resolve(engine.catalog, asWritten.wantedTables, asWritten.timeTravel));
        const plans = tables.length > 0 ? await this.directScans.current(engine) : undefined;
        const analysis = await withJsonColumns(this.analyzer, engine.catalog, { workspaceId, sql: request.sql, analysis: asWritten, tables }, plans);
        const runSql = await this.runnable(analysis);
        const sizer = await ScanSizer.load(engine.catalog, workspaceDataPath(engine.location), tables, analysis.columns, plans);
        const inTurn = <T>(work: () => Promise<T>) =>
          engine.location.catalog.kind === 'sqlite' ? this.embeddedWrites.runExclusive(workspaceId, work) : work();
        const written = await inTurn(() =>
          engine.writeTable(
            qualifiedName(request.target),
            async (connection) => {
              const prior = request.retried ? await findCommittedSnapshot(connection, engine.metadataSchema, request.commitInfo) : undefined;
              if (prior)
                return {
                  rowsWritten: Number(prior.info.records_written ?? 0),
                  snapshotId: prior.snapshotId,
                  inputSnapshotId: Number(prior.info.input_snapshot_id ?? 0),
                  alreadyCommitted: true,
                };
              return this.write(engine, connection, request, runSql, deadline, tables);
            },
            request.admission,
          ),
        );
        // Also after a write found committed: its attempt may have died before registering it (both are idempotent).
        await this.register(workspaceId, request);
        const translatedSql = analysis.rewrites.length > 0 ? analysis.sql : null;
        return { ...written, bytesScanned: sizer.estimate().bytes, translatedSql, elapsedMs: performance.now() - startedAt };
      },
      'background',
    );
  }

  private async write(
    engine: WorkspaceEngine,
    connection: EngineConnection,
    request: MaterializeRequest,
    runSql: string,
    deadline: number,
    tables: LakeTableRef[],
  ) {
    const privatePaths = [workspaceDataPath(engine.location)];
    const timeTravel = timeTravelContext(connection, engine.metadataSchema, tables);
    await engine.macros.prepareFor(connection, runSql);
    for (let attempt = 1; ; attempt++) {
      const inputSnapshotId = Number((await engine.catalog.all(latestSnapshot, {}))[0]?.snapshot_id ?? 0);
      const [existing] = await engine.catalog.all(targetKind, { schema: request.target.schema, table: request.target.table });
      const staging =
        request.materialization === 'incremental' && existing?.kind === 'table' ? `incoming_${Bun.randomUUIDv7().replaceAll('-', '')}` : undefined;
      try {
        // The merge's rows are computed before the transaction: DuckDB writes one database per transaction.
        if (staging) await connection.run(`CREATE TEMP TABLE ${sqlIdentifier(staging)} AS\n${runSql}\n`, undefined, { deadline, signal: request.signal });
        await connection.run('BEGIN TRANSACTION');
        let rowsWritten = 0;
        for (const statement of writeStatements(request, existing?.kind, runSql, staging)) {
          const result = await connection.read(statement, undefined, { deadline, signal: request.signal });
          if (/^(CREATE OR REPLACE TABLE|CREATE TABLE|INSERT)/.test(statement)) rowsWritten = Number(result.scalar() ?? 0);
        }
        // The count and the input snapshot go with the commit, for an attempt that finds this one committed.
        const info = { ...request.commitInfo, input_snapshot_id: inputSnapshotId, records_written: rowsWritten };
        await connection.run(
          `CALL ducklake_set_commit_message(${sqlString(lakeAlias)}, 'oxbow', ${sqlString(`${request.label} ${request.materialization} ${rowsWritten} rows`)}, extra_info => ${sqlString(JSON.stringify(info))})`,
        );
        await connection.run('COMMIT');
        return { rowsWritten, snapshotId: await committedSnapshot(engine, inputSnapshotId, info), inputSnapshotId, alreadyCommitted: false };
      } catch (error) {
        await connection.rollback().catch(() => {});
        if (request.signal?.aborted) throw request.signal.reason;
        if (!isCommitConflict(error) || attempt === maxAttempts) throw await mapDuckDBError(error, { sql: request.sql, privatePaths, timeTravel });
        await Bun.sleep(25 * 2 ** attempt + Math.random() * 25);
      } finally {
        if (staging) await connection.run(`DROP TABLE IF EXISTS temp.main.${sqlIdentifier(staging)}`).catch(() => {});
      }
    }
  }

  /** The primary key the lake's push keeps with a table: an incremental target's key is its merge key. */
  private async register(workspaceId: string, request: MaterializeRequest): Promise<void> {
    const registry = new TableRegistry(this.store);
    if (request.materialization === 'view') await registry.dropped(workspaceId, request.target);
    else
      await registry.created(workspaceId, request.target, request.materialization === 'incremental' ? request.uniqueKey : [], this.clock.now().toISOString());
  }

  /** Binds the statement without running it, so a missing column or a type error is told at once. */
  private async bind(engine: WorkspaceEngine, analysis: QueryAnalysis, tables: LakeTableRef[], admission: Admission | undefined): Promise<void> {
    const runSql = await this.runnable(analysis);
    await engine.read(async (connection) => {
      try {
        await engine.macros.prepareFor(connection, runSql);
        await connection.readTransaction(async () => (await connection.prepare(runSql)).destroySync());
      } catch (error) {
        throw await mapDuckDBError(error, {
          sql: analysis.sql,
          privatePaths: [workspaceDataPath(engine.location)],
          timeTravel: timeTravelContext(connection, engine.metadataSchema, tables),
        });
      }
    }, admission);
  }

  /** The statement as it runs: each table reference a subquery of the table's own columns, named in full. */
  private async runnable(analysis: QueryAnalysis): Promise<string> {
    this.tableSubquery ??= this.parser.parse(tableSubquerySql(0), false).then((parsed) => parsed.from_table as AstNode);
    const { json } = planTableScans(analysis.ast, analysis.facts, { tableSubquery: await this.tableSubquery }, () => undefined);
    return (await this.parser.unparse(json)).trim().replace(/;\s*$/, '');
  }
}

/**
 * One snapshot's statements. `table` replaces the table with the statement's rows; `view` replaces the
 * view; `incremental` creates the table on its first run, then deletes the rows whose key comes again
 * and inserts the new rows by column name. A target that changes kind is dropped first, in the same
 * snapshot.
 */
function writeStatements(request: MaterializeRequest, existing: string | undefined, runSql: string, staging: string | undefined): string[] {
  const schema = `${lakeAlias}.${sqlIdentifier(request.target.schema)}`;
  const target = `${schema}.${sqlIdentifier(request.target.table)}`;
  const statements = [`CREATE SCHEMA IF NOT EXISTS ${schema}`];
  const wantsView = request.materialization === 'view';
  if (existing === 'view' && !wantsView) statements.push(`DROP VIEW ${target}`);
  if (existing === 'table' && wantsView) statements.push(`DROP TABLE ${target}`);
  if (wantsView) statements.push(`CREATE OR REPLACE VIEW ${target} AS\n${runSql}\n`);
  else if (!staging) statements.push(`CREATE OR REPLACE TABLE ${target} AS (\n${runSql}\n)`);
  else {
    const incoming = `temp.main.${sqlIdentifier(staging)}`;
    if (request.uniqueKey.length > 0) {
      const matches = request.uniqueKey
        .map((column) => `${target}.${sqlIdentifier(column)} IS NOT DISTINCT FROM incoming.${sqlIdentifier(column)}`)
        .join(' AND ');
      statements.push(`DELETE FROM ${target} USING ${incoming} AS incoming WHERE ${matches}`);
    }
    statements.push(`INSERT INTO ${target} BY NAME SELECT * FROM ${incoming}`);
  }
  return statements;
}
