import { DuckDBTypeId, type DuckDBListType, type DuckDBPreparedStatement, type DuckDBType } from '@duckdb/node-api';
import { AppError } from '../../errors/app-error';
import type { Admission } from '../admission/statement-scheduler';
import type { EngineLane, EngineManager } from '../engine-manager';
import { useLake, useReadCatalog } from '../catalog-names';
import { type WorkspaceEngine } from '../workspace-engine';
import { workspaceDataPath } from '../catalog-attachment';
import { chunkByteSize } from '../duckdb/chunk-size';
import type { EngineConnection } from '../duckdb/engine-connection';
import type { MaterializedRows } from '../duckdb/materialized-rows';
import { StatementAbandoned } from '../duckdb/pending-statement';
import { duckdbErrorOf, isEngineFailure } from '../duckdb/duckdb-error';
import { sqlIdentifier, sqlString } from '../sql-literals';
import { checkQuery, type LakeTableRef } from './check-query';
import type { DirectScans, PlannedQuery } from './direct-scans';
import { encodeChunkRows, type JsonValue } from './encode-values';
import { mapDuckDBError, queryTimeout } from './map-duckdb-error';
import { timeTravelContext } from './time-travel-errors';
import type { QueryAnalyzer, SetOperationCheck } from './query-analyzer';
import { withJsonColumns } from './json-column-types';
import { readQueryProfile, type QueryProfile } from './query-profile';
import { ProgressSampler } from './progress-sampler';
import { StatementCancelled } from './query-cancelled';
import type { QueryColumn, ResultSink } from './result-sink';
import { ScanSizer, type ScanEstimate } from './scan-bytes';
import { tablesVersion } from './table-versions';

export type { QueryColumn } from './result-sink';

/** Reading a page of a job's result file is local and bounded by the page size. */
const pageTimeoutMs = 60_000;
/** An estimate reads the catalog only; callers that pass no limit get this one. */
const defaultEstimateTimeoutMs = 30_000;

/** More rows or bytes than this is RESULT_TOO_LARGE; the hint points to query jobs. */
interface ResultCaps {
  maxRows: number;
  maxBytes: number;
}

/**
 * Values bound to a statement's parameter markers (`$name`), by name: a saved query's parameters,
 * never spliced into its text. Only these names may be in the statement (see checkQuery).
 */
export type QueryParameters = Readonly<Record<string, string | number | bigint | boolean | null>>;

export interface RunOptions extends ResultCaps {
  /**
   * Counts from `startedAt` (when the request arrived; the call when absent): waiting for an instance
   * and opening it, waiting for a slot, compiling and executing all fall within it.
   */
  timeoutMs: number;
  /** A `performance.now()` time: when the request this query answers arrived. */
  startedAt?: number;
  /** Refused with QUERY_TOO_LARGE, before running, when the estimate exceeds it; absent when forced. */
  scanLimitBytes?: number;
  /** The workspace's number of statements at once (its plan's); absent for the service's own reads. */
  concurrency?: number;
  parameters?: QueryParameters;
}

export interface FileRunOptions {
  timeoutMs: number;
  scanLimitBytes?: number;
  /** Called twice a second with the query's progress (0 to 1, see ProgressSampler), while it runs. */
  onProgress?: (fraction: number) => void;
  /** Aborting interrupts the query (a cancelled job): it ends in QueryCancelled, with what ran. */
  signal?: AbortSignal;
}

export interface Compiled {
  tables: LakeTableRef[];
  /** Postgres-only syntax the translation rewrote (empty when the SQL ran as written). */
  rewrites: string[];
  /** The DuckDB SQL the translation made of it; null when it ran as written. */
  translatedSql: string | null;
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
  /** Its CPU time as its instance's threads counted it; the profile's, where there is one, is reported instead. */
  cpuMs?: number;
}

interface Limits {
  /** Jobs run on the workspace's background instance, apart from its requests. */
  lane: EngineLane;
  deadline: number;
  scanLimitBytes: number | undefined;
  admission: Admission | undefined;
  /** The parameter markers the statement may hold: those the caller binds. */
  parameters: ReadonlySet<string>;
}

/**
 * A planned query and whether its prepared statement may be kept for the next run of the same text:
 * not when it reads a live connection's tables, whose scans hold on to the source between runs.
 */
type RunnableQuery = PlannedQuery & { reusable: boolean };

type Execute = (engine: WorkspaceEngine, connection: EngineConnection, query: RunnableQuery, deadline: number) => Promise<Executed>;

/**
 * Runs user SQL on a workspace: translate the Postgres dialect and parse with DuckDB's parser (once
 * per text, see QueryAnalyzer), check every table and function against the workspace's catalog and
 * the policy, estimate the scan from DuckLake's statistics, then execute on a locked instance, under
 * the workspace's admission and with the deadline enforced by interrupting (and, for a statement
 * DuckDB cannot break off, abandoning) it; the query's profile gives the CPU time and the files it
 * actually read.
 */
export class QueryRunner {
  constructor(
    private readonly engines: EngineManager,
    private readonly analyzer: QueryAnalyzer,
    private readonly directScans: DirectScans,
  ) {}

  async estimate(
    workspaceId: string,
    userSql: string,
    options: { timeoutMs?: number; startedAt?: number; concurrency?: number; parameters?: Iterable<string> } = {},
  ): Promise<Compiled> {
    const limits = limitsOf({ timeoutMs: options.timeoutMs ?? defaultEstimateTimeoutMs, startedAt: options.startedAt, concurrency: options.concurrency });
    return this.engines.with(
      workspaceId,
      (engine) =>
        engine.read(async () => {
          try {
            return (await this.compile(engine, userSql, new Set(options.parameters))).compiled;
          } catch (error) {
            throw await mapDuckDBError(error, { sql: userSql, privatePaths: [workspaceDataPath(engine.location)] });
          }
        }, limits.admission),
      'interactive',
      limits.deadline,
    );
  }

  async run(workspaceId: string, userSql: string, sink: ResultSink, options: RunOptions): Promise<RunOutcome> {
    const values = options.parameters && Object.keys(options.parameters).length > 0 ? { ...options.parameters } : undefined;
    return this.measured(workspaceId, userSql, limitsOf(options, 'interactive', values), async (engine, connection, { sql, readsLake, reusable }, deadline) => {
      // A query that reads no table through DuckLake opens every file of its plan, which its estimate
      // already counts: it needs no profile for its scans, and runs where none is kept (when its CPU
      // time can be counted otherwise).
      const target = readsLake ? connection : (connection.unprofiled ?? connection);
      const execute = async (): Promise<Executed> => {
        const rows = await target.read(sql, values, { deadline }, { reuse: reusable });
        // Before the transaction ends, whose own profile replaces the query's.
        const profile = profileOf(engine, target);
        return { ...emitRows(rows, sink, options), profile, cpuMs: target.lastCpuMs };
      };
      // Without DuckLake in the query there is nothing to bind again, and the transaction would only cost time.
      return readsLake ? connection.readTransaction(execute) : execute();
    });
  }

  /**
   * The columns a query's result will have, without running it: compiled and checked as a run is,
   * then prepared (bound and planned by DuckDB) at the catalog's current snapshot. The parameters are
   * the names of its markers; a saved query's text gives each its type, so no value is needed.
   */
  async describe(
    workspaceId: string,
    userSql: string,
    options: { timeoutMs: number; startedAt?: number; concurrency?: number; parameters?: Iterable<string> },
  ): Promise<{ columns: QueryColumn[]; compiled: Compiled }> {
    const names = Object.fromEntries([...(options.parameters ?? [])].map((name) => [name, null]));
    const outcome = await this.measured(workspaceId, userSql, limitsOf(options, 'interactive', names), async (_engine, connection, { sql, readsLake }) => {
      const prepare = async (): Promise<Executed> => {
        const prepared = await connection.prepare(sql);
        try {
          return { columns: preparedColumns(prepared), rowCount: 0, profile: undefined };
        } finally {
          prepared.destroySync();
        }
      };
      return readsLake ? connection.readTransaction(prepare) : prepare();
    });
    return {
      columns: outcome.columns,
      compiled: { tables: outcome.tables, rewrites: outcome.rewrites, translatedSql: outcome.translatedSql, estimate: outcome.estimate },
    };
  }

  /**
   * The workspace catalog's current snapshot: every write to its lake makes a new one. One indexed read
   * of the catalog, the same the query path makes before planning its scans.
   */
  async snapshot(workspaceId: string): Promise<number> {
    return this.engines.with(workspaceId, async (engine) => (await this.directScans.current(engine)).snapshot);
  }

  /** The version, as of the snapshot, of the data the tables hold (see tablesVersion): one catalog read per table. */
  async tablesVersion(workspaceId: string, tables: readonly LakeTableRef[], snapshot: number): Promise<number> {
    if (tables.length === 0) return 0;
    return this.engines.with(workspaceId, (engine) => tablesVersion(engine.catalog, tables, snapshot));
  }

  /**
   * Runs a query into a Parquet file of the workspace's own storage (jobs keep their results there and
   * page through them later). The checked statement is wrapped in COPY on its own lines, so no comment
   * in it can reach the wrapper.
   */
  async runToFile(workspaceId: string, userSql: string, resultPath: string, options: FileRunOptions): Promise<RunOutcome> {
    return this.measured(workspaceId, userSql, limitsOf(options, 'background'), async (engine, connection, { sql }, deadline) => {
      const progress = new ProgressSampler(connection, options.timeoutMs, options.onProgress ?? (() => {}));
      try {
        const inner = sql.trim().replace(/;\s*$/, '');
        const columns = await resultColumns(connection, inner);
        const copy = `COPY (\n${parquetSafe(inner, columns)}\n) TO ${sqlString(resultPath)} (FORMAT parquet)`;
        const written = await connection.read(copy, undefined, { deadline, signal: options.signal }).catch((error: unknown) => {
          // Stopped by its caller: what ran is measured in `measured`, from this share of the work.
          if (options.signal?.aborted) throw new StatementCancelled(connection.lastCpuMs ?? 0, progress.fraction);
          throw error;
        });
        const profile = profileOf(engine, connection);
        return { columns, rowCount: Number(written.scalar() ?? 0), profile };
      } finally {
        progress.stop();
      }
    });
  }

  /**
   * A page of a result file written by runToFile (no lake table: no transaction needed), its values
   * read back as the types the query returned (`columns`, as runToFile gave them).
   */
  async readFilePage(workspaceId: string, resultPath: string, offset: number, limit: number, sink: ResultSink, columns?: QueryColumn[]): Promise<void> {
    const page = `SELECT ${columns ? readBack(columns) : '*'} FROM system.main.read_parquet(${sqlString(resultPath)}) LIMIT ${limit} OFFSET ${offset}`;
    const deadline = performance.now() + pageTimeoutMs;
    await this.engines.with(workspaceId, (engine) =>
      engine.read(async (connection) => {
        try {
          emitRows(await connection.read(page, undefined, { deadline }), sink, { maxRows: limit, maxBytes: Number.MAX_SAFE_INTEGER });
        } catch (error) {
          throw await mapDuckDBError(error, { sql: page, privatePaths: [workspaceDataPath(engine.location)] });
        }
      }),
    );
  }

  /**
   * Compiles the query, holds its estimate against the scan limit, plans its scans, runs it and
   * measures it: CPU time and the files it actually read from its profile. DuckDB's errors become the
   * documented codes.
   */
  private measured(workspaceId: string, userSql: string, limits: Limits, execute: Execute): Promise<RunOutcome> {
    const startedAt = performance.now();
    return this.engines.with(
      workspaceId,
      (engine) =>
        engine.read(async (connection) => {
          let compiledSql = userSql;
          let planned: PlannedQuery | undefined;
          let tables: LakeTableRef[] = [];
          let known: Compiled | undefined;
          try {
            const { compiled, sizer, sql, analysis, plans } = await this.compile(engine, userSql, limits.parameters);
            compiledSql = sql;
            tables = compiled.tables;
            known = compiled;
            assertWithinScanLimit(compiled.estimate.bytes, limits.scanLimitBytes);
            planned = await this.directScans.plan(engine, connection, analysis, compiled.tables, plans);
            await engine.macros.prepareFor(connection, planned.sql);
            if (analysis.setOperation) await checkSetOperation(connection, analysis.setOperation);
            // Compiling counts against the time limit too.
            if (performance.now() >= limits.deadline) throw queryTimeout();
            const reusable = !analysis.wantedTables.some((name) => engine.live.tables.has(name));
            const { columns, rowCount, profile, cpuMs } = await execute(engine, connection, { ...planned, reusable }, limits.deadline);
            return {
              ...compiled,
              columns,
              rowCount,
              bytesScanned: sizer.actual(profile?.scans),
              cpuMs: profile?.cpuMs ?? cpuMs ?? 0,
              elapsedMs: performance.now() - startedAt,
            };
          } catch (thrown) {
            if (thrown instanceof StatementCancelled)
              throw thrown.measured(performance.now() - startedAt, known?.estimate.bytes ?? 0, known?.translatedSql ?? null);
            const error = planned && planned.sql !== compiledSql ? ((await bindErrorOf(connection, compiledSql, thrown)) ?? thrown) : thrown;
            // A table dropped by another process since the names were cached: reload them next time.
            if (duckdbErrorOf(error)?.type === 'Catalog') engine.tableNames.invalidate();
            if (isEngineFailure(error)) this.engines.discard(workspaceId, limits.lane);
            throw await mapDuckDBError(error, {
              sql: compiledSql,
              privatePaths: [workspaceDataPath(engine.location)],
              timeTravel: timeTravelContext(connection, engine.metadataSchema, tables),
            });
          }
        }, limits.admission),
      limits.lane,
      limits.deadline,
    );
  }

  private async compile(engine: WorkspaceEngine, userSql: string, parameters: ReadonlySet<string>) {
    const written = await this.analyzer.analyze(engine.workspaceId, userSql);
    const { facts, wantedTables, timeTravel, columns } = written;
    // Live connections' tables are the instance's own list: asking the lake for them would reload its names every time.
    const lakeTables = wantedTables.filter((name) => !engine.live.tables.has(name));
    const tables = checkQuery(facts, await engine.tableNames.resolve(engine.catalog, lakeTables, timeTravel), engine.live, parameters);
    // A query without tables needs nothing of the catalog; a live connection's tables are rewritten with the plans too.
    const plans = tables.length > 0 ? await this.directScans.current(engine) : undefined;
    // The same tables and columns, with JSON columns read as jsonb where that changes the translation.
    const analysis = await withJsonColumns(this.analyzer, engine.catalog, { workspaceId: engine.workspaceId, sql: userSql, analysis: written, tables }, plans);
    const { sql, rewrites } = analysis;
    const sizer = await ScanSizer.load(engine.catalog, workspaceDataPath(engine.location), tables, columns, plans);
    return { sql, analysis, sizer, plans, compiled: { tables, rewrites, translatedSql: rewrites.length > 0 ? sql : null, estimate: sizer.estimate() } };
  }
}

function limitsOf(
  options: { timeoutMs: number; startedAt?: number; scanLimitBytes?: number; concurrency?: number },
  lane: EngineLane = 'interactive',
  parameters: object = {},
): Limits {
  const deadline = (options.startedAt ?? performance.now()) + options.timeoutMs;
  return {
    lane,
    deadline,
    scanLimitBytes: options.scanLimitBytes,
    admission: options.concurrency === undefined ? undefined : { limit: options.concurrency, deadline },
    parameters: new Set(Object.keys(parameters)),
  };
}

/**
 * Prepares each branch of the statement's own set operation for the column types its check reads
 * (as written: the lake's tables without the lake's name). A branch that does not stand alone (it
 * refers to an outer query) leaves its set operation to DuckDB.
 */
async function checkSetOperation(connection: EngineConnection, operation: SetOperationCheck): Promise<void> {
  for (const statement of useLake) await connection.run(statement);
  try {
    const types: (string[] | null)[] = [];
    for (const branch of operation.branches) {
      const prepared = await connection.prepare(branch).catch(() => undefined);
      if (!prepared) {
        types.push(null);
        continue;
      }
      try {
        types.push(Array.from({ length: prepared.columnCount }, (_, index) => typeName(prepared.columnType(index))));
      } finally {
        prepared.destroySync();
      }
    }
    operation.check(types);
  } finally {
    for (const statement of useReadCatalog) await connection.run(statement);
  }
}

/**
 * A query whose scans were planned runs as rewritten text, so DuckDB's message about a mistake in it
 * quotes that text; preparing the query as written gives the message about the user's own words.
 * Undefined when it prepares (the failure came while running) or the failure was no DuckDB error.
 */
async function bindErrorOf(connection: EngineConnection, sql: string, thrown: unknown): Promise<unknown> {
  if (thrown instanceof AppError || thrown instanceof StatementAbandoned || duckdbErrorOf(thrown)?.type === 'INTERRUPT') return undefined;
  // As written, the query names the lake's tables without the lake's name.
  for (const statement of useLake) await connection.run(statement);
  try {
    (await connection.prepare(sql)).destroySync();
    return undefined;
  } catch (error) {
    return error;
  } finally {
    for (const statement of useReadCatalog) await connection.run(statement);
  }
}

/**
 * Hands a materialized result to the sink chunk by chunk. The caps are checked before values become
 * JavaScript: the row count up front, and each chunk's size as DuckDB holds it, so a result of a
 * million rows or one gigabyte value is refused without being copied onto the event loop.
 */
function emitRows(result: MaterializedRows, sink: ResultSink, caps: ResultCaps): { columns: QueryColumn[]; rowCount: number } {
  if (result.rowCount > caps.maxRows) throw tooLarge(`more than ${caps.maxRows} rows`);
  const types = result.columnTypes();
  const columns = result.columnNames().map((name, index) => ({ name, type: typeName(types[index]!) }));
  // JSON values come back as JSON, not as strings holding JSON (the chunks' vectors lose the alias).
  const jsonColumns = columns.flatMap((column, index) =>
    column.type === 'JSON' ? [{ index, list: false }] : column.type === 'JSON[]' ? [{ index, list: true }] : [],
  );
  sink.columns(columns);
  let heldBytes = 0;
  let encodedBytes = 0;
  for (const chunk of result.chunks()) {
    heldBytes += chunkByteSize(chunk, types);
    if (heldBytes > caps.maxBytes) throw tooLarge(`more than ${caps.maxBytes} bytes`);
    const rows = encodeChunkRows(chunk);
    for (const row of rows) for (const { index, list } of jsonColumns) row[index] = parseJson(row[index]!, list);
    encodedBytes += sink.rows(rows);
    if (encodedBytes > caps.maxBytes) throw tooLarge(`more than ${caps.maxBytes} bytes`);
  }
  return { columns, rowCount: result.rowCount };
}

/** The names and types a query returns, from preparing it: nothing runs. */
async function resultColumns(connection: EngineConnection, sql: string): Promise<QueryColumn[]> {
  const prepared = await connection.prepare(sql);
  try {
    return preparedColumns(prepared);
  } finally {
    prepared.destroySync();
  }
}

/**
 * A prepared statement's result columns. A column whose type depends on a parameter's value (a
 * function such as getvariable given `{{name}}`) has none DuckDB can tell before the value is there:
 * the query cannot be described, and says which column.
 */
function preparedColumns(prepared: DuckDBPreparedStatement): QueryColumn[] {
  return Array.from({ length: prepared.columnCount }, (_, index) => {
    const name = prepared.columnName(index);
    if (prepared.columnTypeId(index) === DuckDBTypeId.INVALID) {
      throw new AppError('QUERY_ERROR', `The type of the result column "${name}" depends on a parameter's value`, {
        hint: 'Give the function a constant argument instead of a parameter.',
      });
    }
    return { name, type: typeName(prepared.columnType(index)) };
  });
}

/**
 * Parquet has no 128-bit integers (DuckDB writes them as doubles) and keeps intervals to the
 * millisecond: columns holding either are written as their text, which casts back exactly, and
 * readBack casts them back. Names must be unique to be selected by name; a result with repeated
 * names is written as it is.
 */
function parquetSafe(sql: string, columns: QueryColumn[]): string {
  const names = new Set(columns.map((column) => column.name));
  if (!columns.some(storedAsText) || names.size !== columns.length) return sql;
  const list = columns.map((column) =>
    storedAsText(column) ? `CAST(${sqlIdentifier(column.name)} AS VARCHAR) AS ${sqlIdentifier(column.name)}` : sqlIdentifier(column.name),
  );
  return `SELECT ${list.join(', ')} FROM (\n${sql}\n) AS result`;
}

function readBack(columns: QueryColumn[]): string {
  return columns
    .map((column) =>
      storedAsText(column) ? `CAST(${sqlIdentifier(column.name)} AS ${column.type}) AS ${sqlIdentifier(column.name)}` : sqlIdentifier(column.name),
    )
    .join(', ');
}

function storedAsText(column: QueryColumn): boolean {
  return /\b(U?HUGEINT|INTERVAL)\b/.test(column.type);
}

function profileOf(engine: WorkspaceEngine, connection: EngineConnection): QueryProfile | undefined {
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
    hint: 'Add a LIMIT or aggregate, or run it as a job, whose results page through any size.',
    advice: 'run-as-job',
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
