import { DuckDBTypeId, type DuckDBConnection, type DuckDBListType, type DuckDBType } from '@duckdb/node-api';
import { AppError } from '../../errors/app-error';
import type { EngineManager } from '../engine-manager';
import type { WorkspaceEngine } from '../workspace-engine';
import { workspaceDataPath } from '../catalog-attachment';
import { tableStats } from '../tables/lake-metadata';
import { checkQuery, type LakeTableRef } from './check-query';
import { jsonValueConverter, type JsonValue } from './encode-values';
import { knownTables } from './known-tables';
import { mapDuckDBError } from './map-duckdb-error';
import { parseQuery, type AstNode } from './parse-query';

export interface QueryColumn {
  name: string;
  /** DuckDB's type name, e.g. BIGINT, VARCHAR, TIMESTAMP WITH TIME ZONE, STRUCT(a INTEGER). */
  type: string;
}

export interface QueryResult {
  columns: QueryColumn[];
  rows: JsonValue[][];
  tables: LakeTableRef[];
  /** Postgres-only syntax the translation rewrote (empty when the SQL ran as written). */
  rewrites: string[];
  elapsedMs: number;
}

export interface QueryOptions {
  timeoutMs: number;
  /** More rows than this is RESULT_TOO_LARGE; the hint points to query jobs. */
  maxRows: number;
}

/** Turns Postgres-flavoured SQL into the DuckDB SQL the engine runs, naming what it rewrote. */
export type SqlTranslator = (sql: string) => { sql: string; rewrites: string[] };

/**
 * Runs user SQL on a workspace: translate the Postgres dialect, parse with DuckDB's parser, check
 * every table and function against the workspace's catalog and the policy, then execute on a locked
 * instance with the timeout enforced by interrupting the connection.
 */
export class QueryRunner {
  constructor(
    private readonly engines: EngineManager,
    private readonly translate: SqlTranslator,
  ) {}

  async run(workspaceId: string, userSql: string, options: QueryOptions): Promise<QueryResult> {
    const { sql, rewrites } = this.translate(userSql);
    return this.engines.with(workspaceId, (engine) =>
      engine.read(async (connection) => {
        const startedAt = performance.now();
        const tables = await this.compile(engine, connection, sql, rewrites.length > 0);
        try {
          const { columns, rows } = await withTimeout(connection, options.timeoutMs, () => collect(connection, sql, options.maxRows));
          return { columns, rows, tables, rewrites, elapsedMs: performance.now() - startedAt };
        } catch (error) {
          throw await mapDuckDBError(error, {
            sql,
            privatePaths: [workspaceDataPath(engine.location)],
            earliestSnapshot: () => earliestSnapshot(connection, engine, tables),
          });
        }
      }),
    );
  }

  /** Parse and check only (the checks that precede every execution, also for estimates). */
  async compile(engine: WorkspaceEngine, connection: DuckDBConnection, sql: string, translated = false): Promise<LakeTableRef[]> {
    const ast = await parseQuery(connection, sql, translated);
    return checkQuery(ast, await knownTables(connection, engine.metadataSchema, hasTimeTravel(ast)));
  }
}

async function collect(connection: DuckDBConnection, sql: string, maxRows: number): Promise<{ columns: QueryColumn[]; rows: JsonValue[][] }> {
  const result = await connection.stream(sql);
  const types = result.columnTypes();
  const columns = result.columnNames().map((name, index) => ({ name, type: typeName(types[index]!) }));
  // JSON values come back as JSON, not as strings holding JSON (the chunks' vectors lose the alias).
  const jsonColumns = columns.flatMap((column, index) => (column.type === 'JSON' ? [{ index, list: false }] : column.type === 'JSON[]' ? [{ index, list: true }] : []));
  const rows: JsonValue[][] = [];
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    if (rows.length + chunk.rowCount > maxRows) {
      throw new AppError('RESULT_TOO_LARGE', `The result has more than ${maxRows} rows`, {
        hint: 'Add a LIMIT or aggregate, or run it as a job (POST /api/v1/query/jobs), whose results page through any size.',
      });
    }
    for (const row of chunk.convertRows(jsonValueConverter) as JsonValue[][]) {
      for (const { index, list } of jsonColumns) row[index] = parseJson(row[index]!, list);
      rows.push(row);
    }
  }
  return { columns, rows };
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

/** Interrupts the connection when the time is up; DuckDB stops within a fraction of a second and the connection stays usable. */
async function withTimeout<T>(connection: DuckDBConnection, timeoutMs: number, work: () => Promise<T>): Promise<T> {
  const timer = setTimeout(() => connection.interrupt(), timeoutMs);
  try {
    return await work();
  } finally {
    clearTimeout(timer);
  }
}

function hasTimeTravel(ast: AstNode): boolean {
  return JSON.stringify(ast).includes('"at_clause":{');
}

async function earliestSnapshot(connection: DuckDBConnection, engine: WorkspaceEngine, tables: LakeTableRef[]): Promise<string | undefined> {
  const historical = tables.filter((ref) => ref.historical);
  const stats = await tableStats(connection, engine.metadataSchema);
  const times = stats.filter((entry) => historical.some((ref) => ref.schema === entry.schema_name && ref.table === entry.name)).map((entry) => entry.earliest_snapshot_at);
  return times.sort()[0];
}
