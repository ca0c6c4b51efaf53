import postgres from 'postgres';
import { createDuckDBInstance } from '../../src/engine/duckdb/create-instance';
import { sqlString } from '../../src/engine/sql-literals';
import { createDatabase } from '../../test/support/backends';
import { tpchTables, type TpchData, type TpchTable } from './generate';
import type { QueryEngine } from './measure';
import { toRows } from './results';

const primaryKeys: Record<TpchTable, string[]> = {
  region: ['r_regionkey'],
  nation: ['n_nationkey'],
  supplier: ['s_suppkey'],
  customer: ['c_custkey'],
  part: ['p_partkey'],
  partsupp: ['ps_partkey', 'ps_suppkey'],
  orders: ['o_orderkey'],
  lineitem: ['l_orderkey', 'l_linenumber'],
};

/** DuckDB's column types in the generated files, as Postgres spells them. */
function postgresType(duckdbType: string): string {
  if (/^DECIMAL\(\d+,\d+\)$/.test(duckdbType)) return duckdbType.replace('DECIMAL', 'numeric');
  const types: Record<string, string> = { BIGINT: 'bigint', INTEGER: 'integer', DATE: 'date', VARCHAR: 'text' };
  const type = types[duckdbType];
  if (!type) throw new Error(`no Postgres type for ${duckdbType}`);
  return type;
}

/**
 * The query texts as dbgen writes them, for Postgres. Every change needs its reason here; today there
 * are none: the texts spell dates as `CAST('…' AS date)` and intervals not at all, which Postgres 15
 * reads as DuckDB does.
 */
export function postgresSql(sql: string): string {
  return sql;
}

/**
 * A database of its own in the Postgres 15 test cluster: the tables with DuckDB's types, the rows
 * copied in by DuckDB's postgres extension (binary COPY), primary keys, statistics. Queries run on
 * one connection with a statement timeout and a `work_mem` fit for analytics (the default 4 MB
 * sends every large sort and hash to disk).
 */
export async function openPostgres(
  data: TpchData,
  options: { extensionDir: string; statementTimeoutMs: number; workMem: string },
): Promise<QueryEngine & { loadMs: number }> {
  const database = await createDatabase();
  const loadStartedAt = performance.now();
  const sql = postgres(database.url, { max: 1, onnotice: () => {}, connection: { statement_timeout: options.statementTimeoutMs, work_mem: options.workMem } });
  try {
    await loadTables(sql, database.url, data, options.extensionDir);
    for (const table of tpchTables) await sql.unsafe(`ALTER TABLE ${table} ADD PRIMARY KEY (${primaryKeys[table].join(', ')})`);
    await sql.unsafe('ANALYZE');
  } catch (error) {
    await sql.end();
    await database.drop();
    throw error;
  }
  const loadMs = performance.now() - loadStartedAt;
  return {
    name: 'Postgres',
    loadMs,
    async run(query) {
      try {
        return toRows(await sql.unsafe(postgresSql(query)).values());
      } catch (error) {
        // 57014 query_canceled: the statement timeout.
        if (error instanceof postgres.PostgresError && error.code === '57014') return 'timeout';
        throw error;
      }
    },
    async close() {
      await sql.end();
      await database.drop();
    },
  };
}

/** Tables with the generated files' column types, then the rows through DuckDB's postgres extension. */
async function loadTables(sql: postgres.Sql, url: string, data: TpchData, extensionDir: string): Promise<void> {
  const instance = await createDuckDBInstance({ extensionDir, extensions: ['postgres_scanner'] });
  const connection = await instance.connect();
  try {
    for (const table of tpchTables) {
      const columns = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlString(data.parquet[table])})`)).getRows();
      await sql.unsafe(`CREATE TABLE ${table} (${columns.map(([name, type]) => `${String(name)} ${postgresType(String(type))} NOT NULL`).join(', ')})`);
    }
    // Attached after the tables exist: the extension reads the catalog when it attaches.
    await connection.run(`ATTACH ${sqlString(url)} AS pg (TYPE postgres)`);
    for (const table of tpchTables) await connection.run(`INSERT INTO pg.public.${table} SELECT * FROM read_parquet(${sqlString(data.parquet[table])})`);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
