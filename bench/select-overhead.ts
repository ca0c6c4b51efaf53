// `SELECT 1` through the whole service over HTTP (API key, rate limit, parsing and checks, execution,
// usage record) against the same statement on an in-process DuckDB: what the service adds.
import { DuckDBInstance } from '@duckdb/node-api';
import { startTestApp } from '../test/support/test-app';
import { bodyOf } from '../test/support/http';
import { openBenchWorkspace } from './bench-workspace';
import { median, percentile, report } from './support';

const runs = 500;
const warmup = 50;

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
const { user, workspace, server } = await openBenchWorkspace(t, 'bench');
const key = (await bodyOf(await t.request('/api/v1/auth/api-keys', { method: 'POST', json: { name: 'bench' }, token: user.accessToken }))).key as string;
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
  {
    measure: 'overhead (target p50 ≤ 3 ms)',
    p50_ms: (median(oxbow) - median(raw)).toFixed(3),
    p99_ms: (percentile(oxbow, 99) - percentile(raw, 99)).toFixed(3),
  },
]);

await server.stop();
await t.stop();
connection.closeSync();
instance.closeSync();
process.exit(0);
