// TPC-H in one run: the 22 queries on a plain in-process DuckDB over Parquet files, on a plain DuckDB
// reading the same data from a workspace's DuckLake tables, through Oxbow's query endpoint over real
// HTTP on those tables, and on Postgres 15. The lake tables come twice: one file per table, and as
// real tables are (loaded in many appends, then upserted so that delete files exist), measured before
// and after the service's own maintenance. Every engine's results are checked against raw DuckDB's.
import { join } from 'node:path';
import { runMaintenance, type MaintenanceReport } from '../src/engine/maintenance/run-maintenance';
import { testEnv } from '../test/support/test-env';
import { report, timed } from './support';
import { generateTpch, tpchTables, type TpchQuery } from './tpch/generate';
import { measureSideBySide, type MeasureOptions, type QueryEngine } from './tpch/measure';
import { openDuckLakeDirect } from './tpch/ducklake-direct';
import { oneFile, type LoadShape } from './tpch/lake-load';
import { oneFileSchema, openOxbow, type OxbowService } from './tpch/oxbow';
import { openPostgres } from './tpch/postgres';
import { openRawDuckDB } from './tpch/raw-duckdb';
import { runsOf, summarize, type EngineMeasurements } from './tpch/report';

// A smaller scale factor for a quick look: BENCH_TPCH_SCALE_FACTOR=0.1 npm run bench -- tpch;
// BENCH_TPCH_POSTGRES=0 leaves Postgres out (its two timeouts alone take four minutes).
const scaleFactor = Number(process.env.BENCH_TPCH_SCALE_FACTOR ?? 1);
const withPostgres = process.env.BENCH_TPCH_POSTGRES !== '0';
const options: MeasureOptions = { runs: 5, slowMs: 20_000 };
const postgresTimeoutMs = 120_000;
const extensionDir = join(testEnv.toolsDir(), 'duckdb-extensions');
/** Each table in 25 appends, then one row in a hundred upserted to the same values. */
const appendedSchema = 'tpch_appended';
const appended: LoadShape = { appends: 25, updateOneIn: 100 };

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const generation = await timed(() => generateTpch(extensionDir, scaleFactor));
const data = generation.value;
console.log(`[tpch] generated SF${scaleFactor} in ${seconds(generation.ms)}: ${tpchTables.map((table) => `${table} ${data.rowCounts[table]}`).join(', ')}`);
const engines: QueryEngine[] = [];
let service: OxbowService | undefined;
try {
  const raw = await openRawDuckDB(data);
  engines.push(raw);
  service = await openOxbow(data, { [oneFileSchema]: oneFile, [appendedSchema]: appended });
  console.log(
    `[tpch] loaded into the workspace's lake tables in ${seconds(service.loadMs[oneFileSchema]!)} (one file each), ${seconds(service.loadMs[appendedSchema]!)} (appended and upserted)`,
  );
  const oxbow = service.engine('Oxbow', oneFileSchema);
  const ducklake = await openDuckLakeDirect(service.config, service.workspaceId, oneFileSchema, 'DuckLake direct');
  const oxbowAppended = service.engine('Oxbow, appended', appendedSchema);
  const ducklakeAppended = await openDuckLakeDirect(service.config, service.workspaceId, appendedSchema, 'DuckLake direct, appended');
  engines.push(oxbow, ducklake, oxbowAppended, ducklakeAppended);
  const postgres = withPostgres ? await openPostgres(data, { extensionDir, statementTimeoutMs: postgresTimeoutMs, workMem: '256MB' }) : undefined;
  if (postgres) {
    engines.push(postgres);
    console.log(`[tpch] loaded into Postgres (primary keys and ANALYZE included) in ${seconds(postgres.loadMs)}`);
  }

  const measured = await measureSideBySide([raw, oxbow, ducklake, oxbowAppended, ducklakeAppended, ...(postgres ? [postgres] : [])], data.queries, options);
  const oneFileRun = {
    raw: measured.get(raw.name)!,
    ducklake: measured.get(ducklake.name)!,
    oxbow: measured.get(oxbow.name)!,
    postgres: postgres && measured.get(postgres.name)!,
  };
  const beforeRun = { raw: measured.get(raw.name)!, ducklake: measured.get(ducklakeAppended.name)!, oxbow: measured.get(oxbowAppended.name)! };

  const maintenance = await timed(() => maintain(service!));
  console.log(`[tpch] maintenance in ${seconds(maintenance.ms)}: ${JSON.stringify(maintenance.value)}`);
  const after = await measureSideBySide([raw, oxbowAppended, ducklakeAppended], data.queries, options);
  const afterRun = { raw: after.get(raw.name)!, ducklake: after.get(ducklakeAppended.name)!, oxbow: after.get(oxbowAppended.name)! };

  const extra = {
    scale_factor: scaleFactor,
    runs: `median of ${options.runs} after one warm-up, the engines taking turns run by run; one run after a warm-up over ${options.slowMs / 1000} s`,
  };
  publish('tpch', data.queries, oneFileRun, {
    ...extra,
    postgres_statement_timeout_ms: postgresTimeoutMs,
    generate_ms: generation.ms,
    oxbow_load_ms: service.loadMs[oneFileSchema],
    postgres_load_ms: postgres?.loadMs,
  });
  publish('tpch-appended', data.queries, beforeRun, {
    ...extra,
    shape: appended,
    load_ms: service.loadMs[appendedSchema],
    files: maintenance.value.dataFilesBefore,
  });
  publish('tpch-appended-maintained', data.queries, afterRun, { ...extra, shape: appended, maintenance_ms: maintenance.ms, maintenance: maintenance.value });
} finally {
  for (const engine of engines) await engine.close();
  await service?.close();
  data.cleanup();
}
process.exit(0);

/** The service's own maintenance of the workspace, as its schedule runs it (the bench plan keeps a day of time travel). */
function maintain(oxbow: OxbowService): Promise<MaintenanceReport> {
  const { t, workspaceId } = oxbow;
  return t.services.engine.engines.with(
    workspaceId,
    (engine) =>
      engine.writeCatalog((connection) =>
        runMaintenance(connection, engine.metadataSchema, { timeTravelDays: 1, targetFileSizeBytes: t.backend.config.maintenance.targetFileSizeBytes }),
      ),
    'background',
  );
}

function publish(name: string, queries: TpchQuery[], measured: EngineMeasurements, extra: Record<string, unknown>): void {
  const summary = summarize(queries, measured, postgresTimeoutMs);
  const geometricMeans: Record<string, string> = {
    query: 'geometric mean',
    'raw DuckDB ms': '',
    'DuckLake ms': '',
    'Oxbow ms': '',
    'Postgres ms': '',
    'DuckLake ÷ raw': summary.ducklakeRatio.toFixed(2),
    'Oxbow ÷ DuckLake': summary.serviceRatio.toFixed(2),
    'Oxbow ÷ raw': summary.oxbowRatio.toFixed(2),
    'Postgres ÷ raw': `${summary.postgresTimeouts ? '≥ ' : ''}${summary.postgresRatio.toFixed(1)}`,
    results: '',
  };
  if (!measured.postgres) {
    delete geometricMeans['Postgres ms'];
    delete geometricMeans['Postgres ÷ raw'];
  }
  console.log(`\n[tpch] ${name}`);
  report(name, [...summary.rows, geometricMeans], { ...extra, differences: summary.differences, runs_ms: runsOf(queries, measured) });
  for (const line of summary.differences) console.log(`[tpch] ${name} differs: ${line}`);
}
