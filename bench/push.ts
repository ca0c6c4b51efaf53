// Push throughput through the HTTP endpoint against a raw DuckDB appender into an equivalent DuckLake
// table, in one run; then many small pushes and a scan, before and after maintenance.
import { startTestApp } from '../test/support/test-app';
import { runQuery } from '../test/support/lake';
import { runMaintenance } from '../src/engine/maintenance/run-maintenance';
import { openBenchWorkspace } from './bench-workspace';
import { median, report, timed } from './support';
import { orderColumns, orderRecord } from './orders-records';

const rows = 100_000;
const runs = 5;
const records = Array.from({ length: rows }, (_, i) => orderRecord(i));

const t = await startTestApp('local');
const { user, workspace, server } = await openBenchWorkspace(t, 'bench');

// The push over HTTP and the raw appender take turns, so that a busy moment of a shared machine
// weighs on both alike; the first round warms both up and is left out.
async function pushOverHttp(run: number): Promise<number> {
  const body = JSON.stringify({ table: `bench.http_${run}`, records });
  const { ms, value } = await timed(() =>
    fetch(`${server.url}/api/v1/workspaces/${workspace.id}/push`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.accessToken}` },
    }),
  );
  if (value.status !== 200) throw new Error(`push failed: ${value.status} ${await value.text()}`);
  return ms;
}

function rawAppender(run: number): Promise<number> {
  return t.services.engine.engines.with(workspace.id, (engine) =>
    engine.writeCatalog(async (connection) => {
      await connection.run(`CREATE TABLE bench.raw_${run} (${orderColumns})`);
      const { ms } = await timed(async () => {
        const appender = await connection.createAppender(`raw_${run}`, 'bench', 'lake');
        for (const r of records) {
          appender.appendBigInt(BigInt(r.id));
          appender.appendBigInt(BigInt(r.quantity));
          appender.appendDouble(r.price);
          appender.appendVarchar(r.name);
          appender.appendBoolean(r.active);
          appender.appendVarchar(r.ordered_at);
          appender.appendVarchar(r.city);
          appender.appendBigInt(BigInt(r.segment));
          appender.appendDouble(r.discount);
          appender.appendVarchar(r.channel);
          appender.endRow();
        }
        appender.closeSync();
      });
      return ms;
    }),
  );
}

const http: number[] = [];
const raw: number[] = [];
for (let run = 0; run <= runs; run++) {
  let pushMs: number;
  let rawMs: number;
  if (run % 2 === 0) {
    pushMs = await pushOverHttp(run);
    rawMs = await rawAppender(run);
  } else {
    rawMs = await rawAppender(run);
    pushMs = await pushOverHttp(run);
  }
  if (run === 0) continue;
  http.push(pushMs);
  raw.push(rawMs);
}

const httpRate = rows / (median(http) / 1000);
const rawRate = rows / (median(raw) / 1000);

// Many small pushes, then a scan before and after maintenance.
const smallPushes = 200;
const small: number[] = [];
for (let i = 0; i < smallPushes; i++) {
  const started = performance.now();
  await t.request(`/api/v1/workspaces/${workspace.id}/push`, {
    method: 'POST',
    token: user.accessToken,
    json: { table: 'bench.trickle', records: Array.from({ length: 10 }, (_, j) => ({ i, j, v: i * j })) },
  });
  small.push(performance.now() - started);
}
const scan = async () => {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) times.push((await timed(() => runQuery(t, workspace.id, 'SELECT count(*), sum(v), avg(j) FROM bench.trickle'))).ms);
  return median(times);
};
const scanBefore = await scan();
const maintenance = await t.services.engine.engines.with(workspace.id, (engine) =>
  engine.writeCatalog((connection) => runMaintenance(connection, engine.metadataSchema, { timeTravelDays: 0, targetFileSizeBytes: 128 * 1024 * 1024 })),
);
const scanAfter = await scan();

report(
  'push',
  [
    { measure: `push ${rows} records × 10 columns over HTTP (median of ${runs})`, value: `${Math.round(httpRate)} rows/s`, ms: Math.round(median(http)) },
    { measure: `raw DuckDB appender into a DuckLake table (median of ${runs})`, value: `${Math.round(rawRate)} rows/s`, ms: Math.round(median(raw)) },
    { measure: 'HTTP ÷ raw (target ≥ 1.0)', value: (httpRate / rawRate).toFixed(2), ms: '' },
    {
      measure: `push of 10 records into an existing table, in process (median of ${smallPushes})`,
      value: `${median(small).toFixed(1)} ms`,
      ms: Math.round(median(small)),
    },
    {
      measure: `scan after ${smallPushes} pushes of 10 rows (${maintenance.dataFilesBefore} files)`,
      value: `${scanBefore.toFixed(1)} ms`,
      ms: Math.round(scanBefore),
    },
    { measure: `scan after maintenance (${maintenance.dataFilesAfter} files)`, value: `${scanAfter.toFixed(1)} ms`, ms: Math.round(scanAfter) },
  ],
  { http_ms: http, raw_ms: raw, small_push_ms: small, maintenance },
);

await server.stop();
await t.stop();
process.exit(0);
