// Another tenant's experience while one workspace saturates the engine. The service runs as its own
// process (`serve`: API and worker, as `npm start` runs it); this process is only the clients. Tenant
// B's `SELECT 1` over HTTP and B's login are timed idle, then while tenant A keeps ten long statements
// in flight (five jobs and five interactive queries that run into the timeout, resent as they end),
// then while A sends statements DuckDB cannot interrupt quickly or that are costly to compile.
import { startTestApp } from '../test/support/test-app';
import { createVerifiedUser, type TestUser } from '../test/support/accounts';
import { createWorkspace } from '../test/support/workspaces';
import { serviceEnvOf } from '../test/support/service-env';
import { startServiceProcess } from '../test/support/service-process';
import { median, percentile, report } from './support';
import { useBenchPlan } from './bench-workspace';

const selects = 300;
const logins = 30;
const runaway = 'SELECT sum(a.x * b.x) FROM generate_series(1, 100000000) a(x) CROSS JOIN generate_series(1, 100000000) b(x)';
const slowCalls = [
  "SELECT length(repeat('x', 1000000000))",
  "SELECT levenshtein(repeat('a', 60000), repeat('b', 60000))",
  `SELECT ${Array.from({ length: 200_000 }, () => '1').join(' + ')}`,
  `SELECT 1 IN (${Array.from({ length: 100_000 }, (_, i) => i).join(', ')})`,
];

const setup = await startTestApp('local');
const a = await createVerifiedUser(setup, 'saturating');
const b = await createVerifiedUser(setup, 'neighbour');
const workspaceA = (await createWorkspace(setup, a)).id;
const workspaceB = (await createWorkspace(setup, b)).id;
// The bench plan lifts the per-minute limits so that A keeps the engine busy for the whole run.
await useBenchPlan(setup, workspaceA);
await useBenchPlan(setup, workspaceB);

const service = await startServiceProcess('serve', { ...serviceEnvOf(setup), LOG_LEVEL: 'info', QUERY_TIMEOUT_MS: '10000', QUERY_JOB_TIMEOUT: '60s' });
const api = (path: string, init: { method?: string; json?: unknown; token?: string } = {}) =>
  fetch(`${service.baseUrl}/api/v1${path}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });

async function timeAll(count: number, work: () => Promise<Response>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const startedAt = performance.now();
    const response = await work();
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`unexpected ${response.status}`);
    times.push(performance.now() - startedAt);
  }
  return times;
}

const measureB = async () => ({
  select: await timeAll(selects, () => api('/query', { json: { sql: 'SELECT 1', workspace_id: workspaceB }, token: b.accessToken })),
  login: await timeAll(logins, () => api('/auth/login', { json: { email: b.email, password: b.password } })),
});

/** Keeps sending a statement as A until stopped; each one ends at its timeout or is refused at once. */
function keepSending(user: TestUser, workspaceId: string, sql: string, stop: { stopped: boolean }): Promise<void> {
  return (async () => {
    while (!stop.stopped) {
      const response = await api('/query', { json: { sql, workspace_id: workspaceId }, token: user.accessToken });
      await response.arrayBuffer();
      if (response.status === 429) await Bun.sleep(200);
    }
  })();
}

await timeAll(50, () => api('/query', { json: { sql: 'SELECT 1', workspace_id: workspaceB }, token: b.accessToken })); // warm-up
const idle = await measureB();

const saturation = { stopped: false };
for (let i = 0; i < 5; i++) await api('/query/jobs', { json: { sql: runaway, workspace_id: workspaceA }, token: a.accessToken });
const senders = Array.from({ length: 5 }, () => keepSending(a, workspaceA, runaway, saturation));
await Bun.sleep(2_000);
const loaded = await measureB();
saturation.stopped = true;

const hostile = { stopped: false };
const hostileSenders = slowCalls.map((sql) => keepSending(a, workspaceA, sql, hostile));
await Bun.sleep(2_000);
const underHostile = await measureB();
hostile.stopped = true;

const row = (scenario: string, what: string, times: number[], base?: number[]) => ({
  scenario,
  measure: what,
  p50_ms: median(times).toFixed(1),
  p99_ms: percentile(times, 99).toFixed(1),
  p99_vs_idle: base ? (percentile(times, 99) / percentile(base, 99)).toFixed(2) : '1.00',
});
report('isolation', [
  row('idle', `B: SELECT 1 over HTTP (${selects})`, idle.select),
  row('idle', `B: login (${logins})`, idle.login),
  row('A: 5 jobs + 5 queries at the timeout', `B: SELECT 1 over HTTP (${selects})`, loaded.select, idle.select),
  row('A: 5 jobs + 5 queries at the timeout', `B: login (${logins})`, loaded.login, idle.login),
  row('A: uninterruptible and compile-heavy', `B: SELECT 1 over HTTP (${selects})`, underHostile.select, idle.select),
  row('A: uninterruptible and compile-heavy', `B: login (${logins})`, underHostile.login, idle.login),
]);
console.log('targets: p99 under load ≤ 5 × idle p99; SELECT 1 p99 < 250 ms while A sends uninterruptible or compile-heavy statements');

await Promise.all([...senders, ...hostileSenders]);
await service.stop();
await setup.stop();
process.exit(0);
