// TPC-H at scale factor 1 in one run: the 22 queries on a plain in-process DuckDB over Parquet files,
// on a plain DuckDB reading the same data from a workspace's DuckLake tables, through Oxbow's query
// endpoint over real HTTP on those tables, and on Postgres 15. Every engine's results are checked
// against raw DuckDB's.
import { join } from 'node:path';
import { testEnv } from '../test/support/test-env';
import { report, timed } from './support';
import { generateTpch, tpchTables } from './tpch/generate';
import { measureSideBySide, type MeasureOptions, type QueryEngine } from './tpch/measure';
import { openDuckLakeDirect } from './tpch/ducklake-direct';
import { openOxbow } from './tpch/oxbow';
import { openPostgres } from './tpch/postgres';
import { openRawDuckDB } from './tpch/raw-duckdb';
import { runsOf, summarize } from './tpch/report';

const scaleFactor = 1;
const options: MeasureOptions = { runs: 3, slowMs: 20_000 };
const postgresTimeoutMs = 120_000;
const extensionDir = join(testEnv.toolsDir(), 'duckdb-extensions');

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const generation = await timed(() => generateTpch(extensionDir, scaleFactor));
const data = generation.value;
console.log(`[tpch] generated SF${scaleFactor} in ${seconds(generation.ms)}: ${tpchTables.map((table) => `${table} ${data.rowCounts[table]}`).join(', ')}`);
const engines: QueryEngine[] = [];
try {
  const raw = await openRawDuckDB(data);
  engines.push(raw);
  const oxbow = await openOxbow(data);
  engines.push(oxbow);
  console.log(`[tpch] loaded into the workspace's lake tables in ${seconds(oxbow.loadMs)}`);
  const ducklake = await openDuckLakeDirect(oxbow.config, oxbow.workspaceId);
  engines.push(ducklake);
  const postgres = await openPostgres(data, { extensionDir, statementTimeoutMs: postgresTimeoutMs, workMem: '256MB' });
  engines.push(postgres);
  console.log(`[tpch] loaded into Postgres (primary keys and ANALYZE included) in ${seconds(postgres.loadMs)}`);

  const measured = await measureSideBySide(engines, data.queries, options);
  const byEngine = { raw: measured.get(raw.name)!, ducklake: measured.get(ducklake.name)!, oxbow: measured.get(oxbow.name)!, postgres: measured.get(postgres.name)! };
  const summary = summarize(data.queries, byEngine, postgresTimeoutMs);
  const geometricMeans = {
    query: 'geometric mean',
    'raw DuckDB ms': '',
    'DuckLake ms': '',
    'Oxbow ms': '',
    'Postgres ms': '',
    'DuckLake ÷ raw': summary.ducklakeRatio.toFixed(2),
    'Oxbow ÷ DuckLake': summary.serviceRatio.toFixed(2),
    'Oxbow ÷ raw': `${summary.oxbowRatio.toFixed(2)} (target ≤ 1.2)`,
    'Postgres ÷ raw': `${summary.postgresTimeouts ? '≥ ' : ''}${summary.postgresRatio.toFixed(1)}`,
    results: '',
  };
  report('tpch', [...summary.rows, geometricMeans], {
    scale_factor: scaleFactor,
    runs: `median of ${options.runs} after one warm-up, the engines taking turns run by run; one run after a warm-up over ${options.slowMs / 1000} s`,
    postgres_statement_timeout_ms: postgresTimeoutMs,
    generate_ms: generation.ms,
    oxbow_load_ms: oxbow.loadMs,
    postgres_load_ms: postgres.loadMs,
    differences: summary.differences,
    runs_ms: runsOf(data.queries, byEngine),
  });
  for (const line of summary.differences) console.log(`[tpch] differs: ${line}`);
} finally {
  for (const engine of engines) await engine.close();
  data.cleanup();
}
process.exit(0);
