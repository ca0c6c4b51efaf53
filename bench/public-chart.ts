// 200 viewers of one public chart at once, over HTTP: the latency of a view (the HTML page with the
// chart drawn as SVG) and how many engine queries the views cause. Views of unchanged data are served
// from the per-snapshot cache; after each push the next crowd of viewers causes exactly one query, and
// none after a push to a table the chart does not read.
import { join } from 'node:path';
import { startTestApp } from '../test/support/test-app';
import { bodyOf } from '../test/support/http';
import { pushOk } from '../test/support/lake';
import { namedQuery } from '../src/store/named-query';
import { openBenchWorkspace } from './bench-workspace';
import { median, percentile, report } from './support';

const viewers = 200;
const cachedRounds = 10;
const dataChanges = 5;

const chartRuns = namedQuery<{ workspace_id: string }, { n: number }>(
  'bench.chart_runs',
  "SELECT count(*) AS n FROM query_usage WHERE workspace_id = :workspace_id AND source = 'chart'",
);

const t = await startTestApp('local', { env: { TRUST_PROXY: 'true', PUBLIC_VIEWS_PER_ADDRESS: '1000000', PUBLIC_VIEWS_PER_LINK: '1000000' } });
const { user, workspace, server } = await openBenchWorkspace(t, 'public-chart');
const api = `/api/v1/workspaces/${workspace.id}`;
await pushOk(t, workspace.id, user, {
  table: 'shop.sales',
  records: Array.from({ length: 5_000 }, (_, i) => ({
    day: `2026-${String((i % 12) + 1).padStart(2, '0')}-01`,
    region: ['north', 'south', 'east', 'west'][i % 4],
    revenue: (i * 37) % 1000,
  })),
});
const created = await t.request(`${api}/charts`, {
  method: 'POST',
  token: user.accessToken,
  json: {
    name: 'revenue',
    title: 'Revenue by month',
    sql: 'SELECT day, region, sum(revenue) AS revenue FROM shop.sales GROUP BY ALL ORDER BY day',
    chart_type: 'bar',
    config: { x: 'day', y: ['revenue'], series: 'region', stacked: true },
  },
});
if (created.status !== 201) throw new Error(`chart: ${created.status} ${await created.text()}`);
const token = (await bodyOf(await t.request(`${api}/charts/revenue/publish`, { method: 'POST', token: user.accessToken, json: {} }))).token as string;
const url = `${server.url}/c/${token}`;
const runs = async () => (await t.infra.store.first(chartRuns, { workspace_id: workspace.id }))!.n;

/**
 * Viewers open the page, each from its own address, from a process of their own (the service keeps its
 * event loop to itself, as it would behind real clients); returns each view's latency.
 */
async function views(mode: 'together' | 'one-by-one', at = url): Promise<number[]> {
  const viewersProcess = Bun.spawn([process.execPath, join(import.meta.dir, 'public-chart-viewers.ts'), at, String(viewers), mode], {
    stdout: 'pipe',
    stderr: 'inherit',
  });
  const output = await new Response(viewersProcess.stdout).text();
  if ((await viewersProcess.exited) !== 0) throw new Error('the viewers failed');
  return JSON.parse(output) as number[];
}
const crowd = () => views('together');

await crowd();
const warmRuns = await runs();
const cached: number[] = [];
for (let round = 0; round < cachedRounds; round++) cached.push(...(await crowd()));
const cachedQueries = (await runs()) - warmRuns;

// The same crowd handed to the service in its own process, without sockets: what the service itself spends.
const inProcess: number[] = [];
const beforeInProcess = await runs();
for (let round = 0; round < cachedRounds; round++) {
  inProcess.push(
    ...(await Promise.all(
      Array.from({ length: viewers }, async (_, viewer) => {
        const startedAt = performance.now();
        const response = await t.app.handle(
          new Request(`http://localhost/c/${token}`, { headers: { 'x-forwarded-for': `10.${viewer >> 8}.${viewer & 255}.2` } }),
        );
        if (response.status !== 200 || !(await response.text()).includes('<svg')) throw new Error(`view failed: ${response.status}`);
        return performance.now() - startedAt;
      }),
    )),
  );
}
const inProcessQueries = (await runs()) - beforeInProcess;

// The transport's own share: the same viewers against a bare server that answers the same page, with
// its headers, and does nothing else (no routing, no plugins, no lookups).
const page = await fetch(url);
const pageHeaders = Object.fromEntries(page.headers);
const pageBytes = new Uint8Array(await page.arrayBuffer());
const bare = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response(pageBytes, { headers: pageHeaders }) });
const transport: number[] = [];
for (let round = 0; round < cachedRounds; round++) transport.push(...(await views('together', `${bare.url.href}c/${token}`)));
await bare.stop(true);

const beforeAlone = await runs();
const alone = await views('one-by-one');
const aloneQueries = (await runs()) - beforeAlone;

const changed: number[] = [];
const beforeChanges = await runs();
for (let change = 0; change < dataChanges; change++) {
  await pushOk(t, workspace.id, user, { table: 'shop.sales', records: [{ day: '2026-12-01', region: 'north', revenue: change }] });
  changed.push(...(await crowd()));
}
const changeQueries = (await runs()) - beforeChanges;

// Writes to a table the chart does not read: a new snapshot of the workspace, the same data for the chart.
const elsewhere: number[] = [];
const beforeElsewhere = await runs();
for (let change = 0; change < dataChanges; change++) {
  await pushOk(t, workspace.id, user, { table: 'shop.returns', records: [{ day: '2026-12-01', amount: change }] });
  elsewhere.push(...(await crowd()));
}
const elsewhereQueries = (await runs()) - beforeElsewhere;

const row = (measure: string, times: number[], queries: number) => ({
  measure,
  views: times.length,
  p50_ms: median(times).toFixed(1),
  p99_ms: percentile(times, 99).toFixed(1),
  engine_queries: queries,
});
report('public-chart', [
  row(`${viewers} viewers at once, data unchanged (${cachedRounds} crowds; target p50 ≤ 20 ms, 0 queries)`, cached, cachedQueries),
  row(`${viewers} views at once handed to the service in its process, no sockets (${cachedRounds} crowds)`, inProcess, inProcessQueries),
  row(`${viewers} viewers at once against a bare server sending the same page, no work (${cachedRounds} crowds; the transport's share)`, transport, 0),
  row(`one viewer at a time, data unchanged (${viewers} views)`, alone, aloneQueries),
  row(`${viewers} viewers at once right after a push (${dataChanges} pushes; target 1 query per push)`, changed, changeQueries),
  row(`${viewers} viewers at once right after a push to another table (${dataChanges} pushes; target 0 queries)`, elsewhere, elsewhereQueries),
]);

await server.stop();
await t.stop();
process.exit(0);
