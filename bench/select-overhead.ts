// `SELECT 1` through the whole service over HTTP (API key, rate limit, parsing and checks, execution,
// usage record) against the same statement on an in-process DuckDB: what the service adds.
import { DuckDBInstance } from '@duckdb/node-api';
import { startTestApp } from '../test/support/test-app';
import { createVerifiedUser } from '../test/support/accounts';
import { createWorkspace } from '../test/support/workspaces';
import { bodyOf } from '../test/support/http';
import { startHttpServer } from '../src/api/server';
import { freePort } from '../src/process/ports';
import { namedQuery } from '../src/store/named-query';
import { median, percentile, report } from './support';

const runs = 500;
const warmup = 50;

// A plan whose per-minute limit the benchmark cannot reach: the limit check still runs on every query.
const benchPlan = namedQuery<Record<never, never>>(
  'bench.plan',
  `INSERT INTO plans (id, name, monthly_price_eur, queries_per_minute, included_queries, storage_limit_gb, connector_limit, max_scan_bytes, price_per_tb_scanned_eur, time_travel_days, sort_order)
   VALUES ('bench', 'Bench', 0, 1000000, 1000000, 1, NULL, 1099511627776, 5.00, 1, 100) ON CONFLICT (id) DO NOTHING`,
);
const usePlan = namedQuery<{ id: string }>('bench.use_plan', "UPDATE workspaces SET plan_id = 'bench' WHERE id = :id");

async function latencies(work: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const startedAt = performance.now();
    await work();
    times.push(performance.now() - startedAt);
  }
  return times;
}

const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
const raw = await latencies(() => connection.runAndReadAll('SELECT 1'));

const t = await startTestApp('local');
const user = await createVerifiedUser(t, 'bench');
const workspace = await createWorkspace(t, user, 'bench');
await t.infra.store.run(benchPlan, {});
await t.infra.store.run(usePlan, { id: workspace.id });
const key = (await bodyOf(await t.request('/api/v1/auth/api-keys', { method: 'POST', json: { name: 'bench' }, token: user.accessToken }))).key as string;
const server = startHttpServer(t.app, { host: '127.0.0.1', port: await freePort() });
const body = JSON.stringify({ sql: 'SELECT 1', workspace_id: workspace.id });
const oxbow = await latencies(async () => {
  const response = await fetch(`${server.url}/api/v1/execute`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-api-key': key } });
  if (response.status !== 200) throw new Error(`query failed: ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
});

const row = (name: string, times: number[]) => ({ measure: name, p50_ms: median(times).toFixed(3), p99_ms: percentile(times, 99).toFixed(3) });
report('select-overhead', [
  row(`raw DuckDB in process (${runs} runs)`, raw),
  row(`POST /api/v1/execute over HTTP (${runs} runs)`, oxbow),
  { measure: 'overhead (target p50 ≤ 3 ms)', p50_ms: (median(oxbow) - median(raw)).toFixed(3), p99_ms: (percentile(oxbow, 99) - percentile(raw, 99)).toFixed(3) },
]);

await server.stop();
await t.stop();
connection.closeSync();
instance.closeSync();
process.exit(0);
