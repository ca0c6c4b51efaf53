// Usage reports over 1,000,000 usage records in one workspace: the dashboard and the summary (and the
// daily list and current period) over real HTTP, on both backends, against the same month summed from
// the records themselves; then the month's export streamed as CSV, with the process's memory beside it.
import { startTestApp, type TestApp } from '../test/support/test-app';
import type { Backend } from '../test/support/backends';
import { pushOk } from '../test/support/lake';
import { namedQuery } from '../src/store/named-query';
import type { SqlParams } from '../src/store/named-query';
import { openBenchWorkspace } from './bench-workspace';
import { median, percentile, report, timed } from './support';

const records = 1_000_000;
const days = 90;
const batch = 1_000;
const runs = 200;
const warmup = 20;
const kinds = ['query', 'execute', 'job', 'saved_query', 'chart'];
const columns = [
  'id',
  'workspace_id',
  'user_id',
  'source',
  'status',
  'error_code',
  'statement_hash',
  'bytes_scanned',
  'cpu_ms',
  'rows_returned',
  'duration_ms',
  'cost_eur',
  'created_at',
];

const insertBatch = namedQuery<SqlParams>(
  'bench.usage_batch',
  `INSERT INTO query_usage (${columns.join(', ')}) VALUES ${Array.from({ length: batch }, (_, row) => `(${columns.map((column) => `:${column}_${row}`).join(', ')})`).join(', ')}`,
);
// What the recorder keeps with every record, built in one pass for the bulk-loaded ones (the migration's backfill).
const rollUp = namedQuery<{ workspace_id: string }>(
  'bench.usage_roll_up',
  `INSERT INTO usage_daily (workspace_id, day, source, query_count, failed_count, bytes_scanned, cpu_ms, rows_returned, duration_ms, cost_eur)
   SELECT workspace_id, substr(CAST(created_at AS TEXT), 1, 10), source, count(*), sum(CASE WHEN status = 'failed' THEN 1 ELSE 0 END),
          sum(bytes_scanned), sum(cpu_ms), sum(rows_returned), sum(duration_ms), sum(cost_eur)
   FROM query_usage WHERE workspace_id = :workspace_id
   GROUP BY workspace_id, substr(CAST(created_at AS TEXT), 1, 10), source`,
);
// The month summed straight from the records: what every request would cost without the roll-ups.
const scanMonth = namedQuery<{ workspace_id: string; from: string }, { queries: number; bytes: number }>(
  'bench.usage_scan_month',
  `SELECT count(*) AS queries, CAST(sum(bytes_scanned) AS BIGINT) AS bytes FROM query_usage WHERE workspace_id = :workspace_id AND created_at >= :from`,
);

async function seed(t: TestApp, workspaceId: string, userId: string): Promise<void> {
  const now = t.clock.now().getTime();
  const spanMs = days * 86_400_000;
  for (let start = 0; start < records; start += batch) {
    const params: SqlParams = {};
    for (let row = 0; row < batch; row++) {
      const index = start + row;
      const failed = index % 20 === 0;
      const values: Record<string, string | number | null> = {
        id: Bun.randomUUIDv7(),
        workspace_id: workspaceId,
        user_id: userId,
        source: kinds[index % kinds.length]!,
        status: failed ? 'failed' : 'succeeded',
        error_code: failed ? 'QUERY_ERROR' : null,
        statement_hash: 'bench',
        bytes_scanned: failed ? 0 : (index % 997) * 1_000,
        cpu_ms: index % 50,
        rows_returned: failed ? 0 : index % 100,
        duration_ms: index % 70,
        cost_eur: failed ? 0 : (index % 997) * 5e-9,
        created_at: new Date(now - spanMs + Math.floor((index / records) * spanMs)).toISOString(),
      };
      for (const column of columns) params[`${column}_${row}`] = values[column]!;
    }
    await t.infra.store.run(insertBatch, params);
  }
  await t.infra.store.run(rollUp, { workspace_id: workspaceId });
}

async function latencies(url: string, token: string): Promise<number[]> {
  const get = async () => {
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  };
  for (let i = 0; i < warmup; i++) await get();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push((await timed(get)).ms);
  return times;
}

async function measure(backend: Backend) {
  const t = await startTestApp(backend);
  const { user, workspace, server } = await openBenchWorkspace(t, `usage-${backend}`);
  await pushOk(t, workspace.id, user, { table: 'raw.events', records: Array.from({ length: 1_000 }, (_, id) => ({ id, note: `event ${id}` })) });
  const seeded = await timed(() => seed(t, workspace.id, user.userId));
  const base = `${server.url}/api/v1/workspaces/${workspace.id}/usage`;
  const summary = (await (await fetch(base, { headers: { authorization: `Bearer ${user.accessToken}` } })).json()) as {
    period_start: string;
    query_count: number;
    total_bytes_scanned: number;
  };
  const monthStart = `${summary.period_start}T00:00:00.000Z`;
  const scanned = await t.infra.store.first(scanMonth, { workspace_id: workspace.id, from: monthStart });
  if (!scanned || scanned.queries !== summary.query_count || scanned.bytes !== summary.total_bytes_scanned) {
    throw new Error(
      `the roll-ups disagree with the records: ${JSON.stringify(scanned)} vs ${summary.query_count} queries, ${summary.total_bytes_scanned} bytes`,
    );
  }
  const scanTimes: number[] = [];
  for (let i = 0; i < 10; i++) scanTimes.push((await timed(() => t.infra.store.first(scanMonth, { workspace_id: workspace.id, from: monthStart }))).ms);

  const rows: Record<string, string | number>[] = [];
  const row = (name: string, times: number[]) =>
    rows.push({ backend, measure: name, p50: `${median(times).toFixed(2)} ms`, p99: `${percentile(times, 99).toFixed(2)} ms` });
  row('GET …/usage/dashboard (target p50 ≤ 50 ms)', await latencies(`${base}/dashboard`, user.accessToken));
  row('GET …/usage, the month so far (target p50 ≤ 50 ms)', await latencies(base, user.accessToken));
  row('GET …/usage/daily, 30 days', await latencies(`${base}/daily`, user.accessToken));
  row('GET …/usage/current', await latencies(`${base}/current`, user.accessToken));
  row(`the same month summed from the records (${summary.query_count} of them), 10 runs`, scanTimes);

  // The month, then all 90 days (every record): the memory a stream needs does not grow with its length.
  // Both bounds for the 90 days: with a start only, the period ends with the start's month.
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const everyDay = `?start_date=${day(t.clock.now().getTime() - days * 86_400_000)}&end_date=${day(t.clock.now().getTime())}`;
  for (const [label, query] of [
    ['the month', ''],
    [`all ${days} days`, everyDay],
  ] as const) {
    Bun.gc(true);
    const rssBefore = process.memoryUsage().rss;
    let peakRss = rssBefore;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 10);
    const exported = await timed(async () => {
      const response = await fetch(`${base}/export${query}`, { headers: { authorization: `Bearer ${user.accessToken}` } });
      let bytes = 0;
      let lines = 0;
      for await (const chunk of response.body!) {
        bytes += chunk.byteLength;
        for (const byte of chunk) if (byte === 10) lines += 1;
      }
      return { bytes, records: lines - 1 };
    });
    clearInterval(sampler);
    rows.push({
      backend,
      measure: `GET …/usage/export, ${label} as CSV (${exported.value.records} records, ${(exported.value.bytes / 1e6).toFixed(0)} MB), one run`,
      p50: `${exported.ms.toFixed(0)} ms`,
      p99: '',
    });
    rows.push({ backend, measure: `the process's peak RSS growth during that export`, p50: `${((peakRss - rssBefore) / 1e6).toFixed(0)} MB`, p99: '' });
  }
  rows.push({ backend, measure: `seeding ${records} records and their roll-ups`, p50: `${seeded.ms.toFixed(0)} ms`, p99: '' });
  await server.stop();
  await t.stop();
  return rows;
}

const rows = [...(await measure('local')), ...(await measure('postgres-s3'))];
report('usage', rows, { records, days, runs });
process.exit(0);
