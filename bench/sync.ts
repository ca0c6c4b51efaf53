// Connection syncs from Postgres: a full sync of a 1,000,000-row, 10-column table through the API
// (POST .../sync → the workflow → the job succeeded, as a client polling it sees it) against DuckDB's
// own copy of the same table to Parquet in the same run, each after one untimed run; then incremental
// syncs of 1,000 changed rows by a cursor, and syncs of 10,000 changes (inserts, updates, deletes) read
// from the WAL through a replication slot (change data capture).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDuckDBInstance } from '../src/engine/duckdb/create-instance';
import { EngineConnection } from '../src/engine/duckdb/engine-connection';
import { sqlString } from '../src/engine/sql-literals';
import { namedQuery } from '../src/store/named-query';
import { createSourceDatabase, postgresSpec } from '../test/support/connections';
import { startTestApp } from '../test/support/test-app';
import { openBenchWorkspace } from './bench-workspace';
import { median, report, timed } from './support';

// A quick look that proves the benchmark runs: BENCH_SYNC_ROWS=100000 BENCH_SYNC_RUNS=2 npm run bench -- sync
const rows = Number(process.env.BENCH_SYNC_ROWS ?? 1_000_000);
const runs = Number(process.env.BENCH_SYNC_RUNS ?? 5);
const changedRows = 1_000;
const capturedChanges = { updates: 6_000, inserts: 2_000, deletes: 2_000 };
const pollMs = 25;

// The time the stream's activity spent in the sync itself (instance, reads, writes), as the job records it.
const jobEngineMs = namedQuery<{ id: string }, { engine_ms: number }>('bench.sync_engine_ms', 'SELECT engine_ms FROM sync_jobs WHERE id = :id');

const source = await createSourceDatabase();
await source.sql.unsafe(`CREATE TABLE measurements (
  id bigint PRIMARY KEY, device text, site text, reading double precision, quality int,
  flagged boolean, batch_code text, amount numeric(12,2), recorded_on date, updated_at timestamptz NOT NULL)`);
await source.sql.unsafe(`INSERT INTO measurements SELECT g, 'device-' || (g % 977), 'site-' || (g % 31), g * 0.37, (g % 100)::int,
  g % 7 = 0, md5(g::text), (g % 100000) / 100.0, date '2024-01-01' + (g % 700), timestamptz '2024-01-01' + g * interval '1 second'
  FROM generate_series(1, ${rows}) g`);
await source.sql.unsafe('CREATE INDEX ON measurements (updated_at)');
await source.sql.unsafe('VACUUM ANALYZE measurements');

const t = await startTestApp('local', { worker: true, env: { LOG_LEVEL: 'warn' } });
const { user, workspace, server } = await openBenchWorkspace(t, 'bench-sync');
const headers = { 'content-type': 'application/json', authorization: `Bearer ${user.accessToken}` };
const base = `${server.url}/api/v1/workspaces/${workspace.id}/connections`;

async function createConnection(name: string, stream: Record<string, unknown>, spec: Record<string, unknown> = {}): Promise<string> {
  const response = await fetch(base, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name, connector_type: 'postgres', spec: postgresSpec(source, spec), streams: [stream] }),
  });
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/** A sync as a client sees it: from the POST to the poll that finds it succeeded. */
async function sync(connectionId: string): Promise<{ records_written: number; records_read: number; engine_ms: number }> {
  const started = await fetch(`${base}/${connectionId}/sync`, { method: 'POST', headers });
  if (started.status !== 202) throw new Error(`sync failed to start: ${started.status} ${await started.text()}`);
  const jobId = ((await started.json()) as { job_id: string }).job_id;
  for (;;) {
    const job = (await (await fetch(`${base}/${connectionId}/sync-jobs/${jobId}`, { headers })).json()) as {
      status: string;
      records_written: number;
      records_read: number;
      error: unknown;
    };
    if (job.status === 'succeeded')
      return {
        records_written: job.records_written,
        records_read: job.records_read,
        engine_ms: Number((await t.infra.store.first(jobEngineMs, { id: jobId }))?.engine_ms),
      };
    if (job.status === 'failed' || job.status === 'cancelled') throw new Error(`sync ${jobId} ended ${job.status}: ${JSON.stringify(job.error)}`);
    await Bun.sleep(pollMs);
  }
}

/** DuckDB's own copy: the same extension, threads and memory as a sync instance, straight to a Parquet file. */
async function duckdbCopy(dir: string, run: number | 'warm-up'): Promise<number> {
  const config = t.backend.config;
  const instance = await createDuckDBInstance({
    extensionDir: config.duckdb.extensionDir,
    memoryLimit: config.syncs.memoryLimit,
    threads: config.duckdb.threads,
    threadNice: config.duckdb.threadNice,
    tempDirectory: dir,
    extensions: ['postgres_scanner'],
  });
  const connection = new EngineConnection(await instance.connect());
  try {
    const url = new URL(source.url);
    const dsn = `host=${url.hostname} port=${url.port} dbname=${source.name} user=${decodeURIComponent(url.username)}`;
    const { ms } = await timed(() =>
      connection.run(
        `COPY (FROM postgres_scan(${sqlString(dsn)}, 'public', 'measurements')) TO ${sqlString(join(dir, `copy-${run}.parquet`))} (FORMAT parquet)`,
      ),
    );
    return ms;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

const scratch = mkdtempSync(join(tmpdir(), 'oxbow-bench-sync-'));
const copyMs: number[] = [];
const fullMs: number[] = [];
const fullEngineMs: number[] = [];
const full = await createConnection('bench_full', { name: 'measurements', sync_mode: 'full_refresh_overwrite' });
// One untimed run of each first, as the TPC-H benchmark does: the first sync of a freshly started service
// also opens the workspace's engine and loads the extensions into the process, which no later one repeats.
await duckdbCopy(scratch, 'warm-up');
await sync(full);
for (let run = 0; run < runs; run++) {
  // Alternated, so that neither side has the warmer source cache or the quieter minute.
  copyMs.push(await duckdbCopy(scratch, run));
  const { ms, value } = await timed(() => sync(full));
  if (value.records_written !== rows) throw new Error(`full sync wrote ${value.records_written} rows`);
  fullMs.push(ms);
  fullEngineMs.push(value.engine_ms);
}

const incremental = await createConnection('bench_incremental', {
  name: 'measurements',
  sync_mode: 'incremental_append_deduped',
  cursor_field: 'updated_at',
  primary_key: ['id'],
});
const initial = await timed(() => sync(incremental));
const incrementalMs: number[] = [];
const incrementalEngineMs: number[] = [];
for (let run = 0; run < runs; run++) {
  const first = 1 + run * Math.floor(rows / runs);
  await source.sql.unsafe(
    `UPDATE measurements SET reading = reading + 1, updated_at = now() + interval '1 day' * ${run + 1} WHERE id BETWEEN ${first} AND ${first + changedRows - 1}`,
  );
  const { ms, value } = await timed(() => sync(incremental));
  if (value.records_written !== changedRows) throw new Error(`incremental sync wrote ${value.records_written} rows`);
  incrementalMs.push(ms);
  incrementalEngineMs.push(value.engine_ms);
}

// Change data capture: the same table replicated logically (its first sync reads it whole, untimed), then
// each run changes 10,000 rows (updates, inserts, deletes) and syncs them from the slot.
const captured = await createConnection('bench_cdc', { name: 'measurements', sync_mode: 'incremental_append_deduped' }, { replication_method: 'logical' });
await sync(captured);
const cdcMs: number[] = [];
const cdcEngineMs: number[] = [];
const changeCount = capturedChanges.updates + capturedChanges.inserts + capturedChanges.deletes;
for (let run = 0; run < runs; run++) {
  const first = Math.floor(rows / 2) + 1 + run * 20_000;
  const inserted = rows + 1 + run * capturedChanges.inserts;
  await source.sql.unsafe(
    `UPDATE measurements SET reading = reading + 1, updated_at = now() WHERE id BETWEEN ${first} AND ${first + capturedChanges.updates - 1}`,
  );
  await source.sql.unsafe(`INSERT INTO measurements SELECT g, 'device-new', 'site-new', g * 0.37, 1, false, md5(g::text), 1.5, date '2025-01-01', now()
    FROM generate_series(${inserted}, ${inserted + capturedChanges.inserts - 1}) g`);
  await source.sql.unsafe(`DELETE FROM measurements WHERE id BETWEEN ${first + 10_000} AND ${first + 10_000 + capturedChanges.deletes - 1}`);
  const { ms, value } = await timed(() => sync(captured));
  if (value.records_read !== changeCount) throw new Error(`change data capture read ${value.records_read} changes, not ${changeCount}`);
  cdcMs.push(ms);
  cdcEngineMs.push(value.engine_ms);
}

const copyRate = rows / (median(copyMs) / 1000);
const fullRate = rows / (median(fullMs) / 1000);
report(
  'sync',
  [
    {
      measure: `DuckDB's own copy, COPY (FROM postgres_scan(...)) TO Parquet, ${rows} rows × 10 columns (median of ${runs})`,
      value: `${Math.round(copyRate)} rows/s`,
      ms: Math.round(median(copyMs)),
    },
    {
      measure: `full sync through the API, full_refresh_overwrite (median of ${runs})`,
      value: `${Math.round(fullRate)} rows/s`,
      ms: Math.round(median(fullMs)),
    },
    {
      measure: '… of which the stream activity (sync instance, reads, writes, swap)',
      value: `${Math.round(rows / (median(fullEngineMs) / 1000))} rows/s`,
      ms: Math.round(median(fullEngineMs)),
    },
    { measure: 'full sync ÷ DuckDB copy (target ≥ 0.7)', value: (fullRate / copyRate).toFixed(2), ms: '' },
    { measure: 'first incremental_append_deduped sync (every row)', value: `${Math.round(rows / (initial.ms / 1000))} rows/s`, ms: Math.round(initial.ms) },
    {
      measure: `incremental sync of ${changedRows} changed rows, end to end (median of ${runs}; target ≤ 2 s)`,
      value: `${(median(incrementalMs) / 1000).toFixed(2)} s`,
      ms: Math.round(median(incrementalMs)),
    },
    { measure: '… of which the stream activity', value: `${(median(incrementalEngineMs) / 1000).toFixed(2)} s`, ms: Math.round(median(incrementalEngineMs)) },
    {
      measure: `change data capture of ${changeCount} changes (${capturedChanges.updates} updates, ${capturedChanges.inserts} inserts, ${capturedChanges.deletes} deletes) from the WAL, end to end (p50 of ${runs})`,
      value: `${(median(cdcMs) / 1000).toFixed(2)} s`,
      ms: Math.round(median(cdcMs)),
    },
    {
      measure: '… of which the change log activity (slot, rows read back by key, writes)',
      value: `${(median(cdcEngineMs) / 1000).toFixed(2)} s`,
      ms: Math.round(median(cdcEngineMs)),
    },
  ],
  {
    copy_ms: copyMs,
    full_ms: fullMs,
    full_engine_ms: fullEngineMs,
    incremental_ms: incrementalMs,
    incremental_engine_ms: incrementalEngineMs,
    cdc_ms: cdcMs,
    cdc_engine_ms: cdcEngineMs,
  },
);

rmSync(scratch, { recursive: true, force: true });
await server.stop();
await t.stop();
await source.drop();
process.exit(0);
