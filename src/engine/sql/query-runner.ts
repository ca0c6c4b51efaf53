import { DuckDBTypeId, type DuckDBConnection, type DuckDBResult, type DuckDBListType, type DuckDBType } from '@duckdb/node-api';
import { AppError } from '../../errors/app-error';
import type { EngineManager } from '../engine-manager';
import { lakeAlias, readDefaultCatalog, type WorkspaceEngine } from '../workspace-engine';
import { workspaceDataPath } from '../catalog-attachment';
import { sqlString } from '../sql-literals';
import { tableStats } from '../tables/lake-metadata';
import { checkQuery, type LakeTableRef } from './check-query';
import type { DirectScans, PlannedQuery } from './direct-scans';
import { jsonValueConverter, type JsonValue } from './encode-values';
import { mapDuckDBError } from './map-duckdb-error';
import type { QueryAnalyzer } from './query-analyzer';
import { readQueryProfile, type QueryProfile } from './query-profile';
import type { QueryColumn, ResultSink } from './result-sink';
import { ScanSizer, type ScanEstimate } from './scan-bytes';

export type { QueryColumn } from './result-sink';

/** Reading a page of a job's result file is local and bounded by the page size. */
const pageTimeoutMs = 60_000;

/** More rows or bytes than this is RESULT_TOO_LARGE; the hint points to query jobs. */
interface ResultCaps {
  maxRows: number;
  maxBytes: number;
}

export interface RunOptions extends ResultCaps {
  timeoutMs: number;
  /** Refused with QUERY_TOO_LARGE, before running, when the estimate exceeds it; absent when forced. */
  scanLimitBytes?: number;
}

export interface FileRunOptions {
  timeoutMs: number;
  scanLimitBytes?: number;
  /** Called about once a second with DuckDB's progress (0 to 1), while the query runs. */
  onProgress?: (fraction: number) => void;
  /** Aborting interrupts the query (a cancelled job). */
  signal?: AbortSignal;
}

export interface Compiled {
  tables: LakeTableRef[];
  /** Postgres-only syntax the translation rewrote (empty when the SQL ran as written). */
  rewrites: string[];
  estimate: ScanEstimate;
}

export interface RunOutcome extends Compiled {
  columns: QueryColumn[];
  rowCount: number;
  bytesScanned: number;
  cpuMs: number;
  elapsedMs: number;
}

/** What running a compiled query yields before it is measured. */
interface Executed {
  columns: QueryColumn[];
  rowCount: number;
  profile: QueryProfile | undefined;
}

/**
 * Runs user SQL on a workspace: translate the Postgres dialect and parse with DuckDB's parser (once
 * per text, see QueryAnalyzer), check every table and function against the workspace's catalog and
 * the policy, estimate the scan from DuckLake's statistics, then execute on a locked instance with the
 * timeout enforced by interrupting the connection; the query's profile gives the CPU time and the
 * files it actually read.
 */
export class QueryRunner {
  constructor(
    private readonly engines: EngineManager,
    private readonly analyzer: QueryAnalyzer,
    private readonly directScans: DirectScans,
  ) {}

  async estimate(workspaceId: string, userSql: string): Promise<Compiled> {
    return this.engines.with(workspaceId, (engine) => engine.read(async (connection) => (await this.compile(engine, connection, userSql)).compiled));
  }

  async run(workspaceId: string, userSql: string, sink: ResultSink, options: RunOptions): Promise<RunOutcome> {
    return this.measured(workspaceId, userSql, options.scanLimitBytes, async (engine, connection, { sql, readsLake }) => {
      const execute = async (): Promise<Executed> => {
        const read = await withTimeout(connection, options.timeoutMs, () => stream(connection, sql, sink, options));
        // Before the transaction ends, whose own profile replaces the query's.
        return { ...read, profile: profileOf(engine, connection) };
      };
      // Without DuckLake in the query there is nothing to bind again, and the transaction would only cost time.
      return readsLake ? inReadTransaction(connection, execute) : execute();
    });
  }

  /**
   * Runs a query into a Parquet file of the workspace's own storage (jobs keep their results there and
   * page through them later). The checked statement is wrapped in COPY on its own lines, so no comment
   * in it can reach the wrapper.
   */
  async runToFile(workspaceId: string, userSql: string, resultPath: string, options: FileRunOptions): Promise<RunOutcome> {
    return this.measured(workspaceId, userSql, options.scanLimitBytes, async (engine, connection, { sql }) => {
      const onAbort = () => connection.interrupt();
      options.signal?.addEventListener('abort', onAbort);
      const progress = options.onProgress && setInterval(() => options.onProgress!(Math.max(0, connection.progress.percentage) / 100), 1_000);
      try {
        const copy = `COPY (\n${sql.trim().replace(/;\s*$/, '')}\n) TO ${sqlString(resultPath)} (FORMAT parquet)`;
        const reader = await withTimeout(connection, options.timeoutMs, () => connection.runAndReadAll(copy));
        const profile = profileOf(engine, connection);
        const described = await connection.runAndReadAll(`DESCRIBE SELECT * FROM system.main.read_parquet(${sqlString(resultPath)})`);
        const columns = described.getRows().map(([name, type]) => ({ name: String(name), type: String(type) }));
        return { columns, rowCount: Number(reader.getRows()[0]?.[0] ?? 0), profile };
      } finally {
        clearInterval(progress);
        options.signal?.removeEventListener('abort', onAbort);
      }
    });
  }

  /** A page of a result file written by runToFile (no lake table: no transaction needed). */
  async readFilePage(workspaceId: string, resultPath: string, offset: number, limit: number, sink: ResultSink): Promise<void> {
    const page = `SELECT * FROM system.main.read_parquet(${sqlString(resultPath)}) LIMIT ${limit} OFFSET ${offset}`;
    await this.engines.with(workspaceId, (engine) =>
      engine.read((connection) => withTimeout(connection, pageTimeoutMs, () => stream(connection, page, sink, { maxRows: limit, maxBytes: Number.MAX_SAFE_INTEGER }))),
    );
  }

  /**
   * Compiles the query, holds its estimate against the scan limit, plans its scans, runs it and
   * measures it: CPU time and the files it actually read from its profile. DuckDB's errors become the
   * documented codes.
   */
  private measured(
    workspaceId: string,
    userSql: string,
    scanLimitBytes: number | undefined,
    execute: (engine: WorkspaceEngine, connection: DuckDBConnection, planned: PlannedQuery) => Promise<Executed>,
  ): Promise<RunOutcome> {
    return this.engines.with(workspaceId, (engine) =>
      engine.read(async (connection) => {
        const startedAt = performance.now();
        const { compiled, sizer, sql, analysis } = await this.compile(engine, connection, userSql);
        assertWithinScanLimit(compiled.estimate.bytes, scanLimitBytes);
        let planned: PlannedQuery | undefined;
        try {
          planned = await this.directScans.plan(engine, connection, analysis, compiled.tables);
          const { columns, rowCount, profile } = await execute(engine, connection, planned);
          return { ...compiled, columns, rowCount, bytesScanned: sizer.actual(profile?.scans), cpuMs: profile?.cpuMs ?? 0, elapsedMs: performance.now() - startedAt };
        } catch (thrown) {
          const error = planned && planned.sql !== sql ? ((await bindErrorOf(connection, sql, thrown)) ?? thrown) : thrown;
          // A table dropped by another process since the names were cached: reload them next time.
          if (/Catalog Error: Table/.test(String(error))) engine.tableNames.invalidate();
          throw await mapDuckDBError(error, {
            sql,
            privatePaths: [workspaceDataPath(engine.location)],
            earliestSnapshot: () => earliestSnapshot(connection, engine, compiled.tables),
          });
        }
      }),
    );
  }

  private async compile(engine: WorkspaceEngine, connection: DuckDBConnection, userSql: string) {
    const analysis = await this.analyzer.analyze(engine.workspaceId, userSql);
    const { sql, rewrites, facts, wantedTables, timeTravel, columns } = analysis;
    const tables = checkQuery(facts, await engine.tableNames.resolve(connection, engine.metadataSchema, wantedTables, timeTravel));
    const sizer = await ScanSizer.load(engine.catalog, workspaceDataPath(engine.location), tables, columns);
    return { sql, analysis, sizer, compiled: { tables, rewrites, estimate: sizer.estimate() } };
  }
}

/**
 * A query whose scans were planned runs as rewritten text, so DuckDB's message about a mistake in it
 * quotes that text; preparing the query as written gives the message about the user's own words.
 * Undefined when it prepares (the failure came while running) or the failure was no DuckDB error.
 */
async function bindErrorOf(connection: DuckDBConnection, sql: string, thrown: unknown): Promise<unknown> {
  if (thrown instanceof AppError || /Interrupt/i.test(String(thrown))) return undefined;
  // As written, the query names the lake's tables without the lake's name.
  await connection.run(`USE ${lakeAlias}`);
  try {
    (await connection.prepare(sql)).destroySync();
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await connection.run(`USE ${readDefaultCatalog}`);
  }
}

/**
 * Streaming needs a prepared statement, and one prepared in another transaction is bound again when
 * it runs, which on DuckLake reads the catalog a second time (6–10 ms a query): a streamed query is
 * prepared, run and read in one transaction. A read has nothing to commit, so the transaction always
 * ends with ROLLBACK, which skips DuckLake's commit checks (about 2 ms).
 */
async function inReadTransaction<T>(connection: DuckDBConnection, work: () => Promise<T>): Promise<T> {
  await connection.run('BEGIN TRANSACTION');
  try {
    return await work();
  } finally {
    await rollback(connection);
  }
}

/** A failed or interrupted statement may have ended the transaction already; nothing else may stay open. */
async function rollback(connection: DuckDBConnection): Promise<void> {
  try {
    await connection.run('ROLLBACK');
  } catch (error) {
    if (!/no transaction is active/i.test(String(error))) throw error;
  }
}

async function stream(connection: DuckDBConnection, sql: string, sink: ResultSink, caps: ResultCaps): Promise<{ columns: QueryColumn[]; rowCount: number }> {
  // One statement (the checks made sure), so it is prepared directly, without splitting the text first.
  const prepared = await connection.prepare(sql);
  try {
    return await readStream(await prepared.stream(), sink, caps);
  } finally {
    prepared.destroySync();
  }
}

async function readStream(result: DuckDBResult, sink: ResultSink, caps: ResultCaps): Promise<{ columns: QueryColumn[]; rowCount: number }> {
  const types = result.columnTypes();
  const columns = result.columnNames().map((name, index) => ({ name, type: typeName(types[index]!) }));
  // JSON values come back as JSON, not as strings holding JSON (the chunks' vectors lose the alias).
  const jsonColumns = columns.flatMap((column, index) => (column.type === 'JSON' ? [{ index, list: false }] : column.type === 'JSON[]' ? [{ index, list: true }] : []));
  sink.columns(columns);
  let rowCount = 0;
  let bytes = 0;
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    rowCount += chunk.rowCount;
    if (rowCount > caps.maxRows) throw tooLarge(`more than ${caps.maxRows} rows`);
    const rows = chunk.convertRows(jsonValueConverter) as JsonValue[][];
    for (const row of rows) for (const { index, list } of jsonColumns) row[index] = parseJson(row[index]!, list);
    bytes += sink.rows(rows);
    if (bytes > caps.maxBytes) throw tooLarge(`more than ${caps.maxBytes} bytes`);
  }
  return { columns, rowCount };
}

function profileOf(engine: WorkspaceEngine, connection: DuckDBConnection): QueryProfile | undefined {
  const path = engine.profilePath(connection);
  return path ? readQueryProfile(path) : undefined;
}

function assertWithinScanLimit(bytes: number, limit: number | undefined): void {
  if (limit === undefined || bytes <= limit) return;
  throw new AppError('QUERY_TOO_LARGE', `The query would scan about ${bytes} bytes; the plan allows ${limit} per query`, {
    hint: 'Select fewer columns or filter on fewer files, send "force": true to run it anyway (it is billed), or upgrade the plan.',
  });
}

function tooLarge(what: string): AppError {
  return new AppError('RESULT_TOO_LARGE', `The result has ${what}`, {
    hint: 'Add a LIMIT or aggregate, or run it as a job (POST /api/v1/query/jobs), whose results page through any size.',
  });
}

/** DuckDB's type name, keeping the JSON alias also for lists of JSON. */
function typeName(type: DuckDBType): string {
  if (type.alias) return type.alias;
  if (type.typeId === DuckDBTypeId.LIST) {
    const element = (type as DuckDBListType).valueType;
    if (element.alias) return `${element.alias}[]`;
  }
  return type.toString();
}

function parseJson(value: JsonValue, list: boolean): JsonValue {
  if (list && Array.isArray(value)) return value.map((item) => parseJson(item, false));
  return typeof value === 'string' ? (JSON.parse(value) as JsonValue) : value;
}

/**
 * Interrupts the connection when the time is up; DuckDB stops within a fraction of a second and the
 * connection stays usable. An interrupt that lands between two steps of a statement (prepare,
 * execute, fetch) is forgotten when the next step starts, so it repeats until the work ends. An
 * interrupted stream ends as if it were complete, with the rows read so far, so work that returns
 * after the interrupt is a timeout too, never a result.
 */
async function withTimeout<T>(connection: DuckDBConnection, timeoutMs: number, work: () => Promise<T>): Promise<T> {
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    connection.interrupt();
    timer = setTimeout(interrupt, 100);
  };
  let timer = setTimeout(interrupt, timeoutMs);
  try {
    const outcome = await work();
    if (interrupted) throw new Error('INTERRUPT Error: Interrupted!');
    return outcome;
  } finally {
    clearTimeout(timer);
  }
}

async function earliestSnapshot(connection: DuckDBConnection, engine: WorkspaceEngine, tables: LakeTableRef[]): Promise<string | undefined> {
  const historical = tables.filter((ref) => ref.historical);
  const stats = await tableStats(connection, engine.metadataSchema);
  const times = stats.filter((entry) => historical.some((ref) => ref.schema === entry.schema_name && ref.table === entry.name)).map((entry) => entry.earliest_snapshot_at);
  return times.sort()[0];
}
