// A rolling restart under load: two `serve` replicas (API and worker) over one Postgres, one MinIO
// bucket and one Temporal, ROLLING_RESTART_RATE requests a second (50 by default) of queries, pushes,
// job submissions and job polls for ROLLING_RESTART_SECONDS (60 by default), while one replica gets SIGTERM and is started
// again. The client balances as a load balancer would: over the replicas whose /readyz says 200,
// probed every 250 ms. A 503 with Retry-After is retried once on a ready replica and counts as
// handled only if the retry succeeds; anything else that is not a success is a failed request.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp } from '../test/support/test-app';
import { pushOk } from '../test/support/lake';
import { submitJobOk } from '../test/support/jobs';
import { startServiceProcess, type ServiceProcess } from '../test/support/service-process';
import { serviceEnvOf } from '../test/support/service-env';
import { freePort } from '../src/process/ports';
import { openBenchWorkspace } from './bench-workspace';
import { percentile, report } from './support';
import { namedQuery } from '../src/store/named-query';

const seconds = Number(process.env.ROLLING_RESTART_SECONDS ?? 60);
const ratePerSecond = Number(process.env.ROLLING_RESTART_RATE ?? 50);
/** Pushes go to this many tables in turn, as several producers would: one table's commits queue behind each other. */
const pushTables = 8;
// The workspace runs as many statements at once as Business does: this measures restarts, not the plan's limit.
const roomyPlan = namedQuery<Record<never, never>>('bench.rolling_plan', "UPDATE plans SET max_concurrent_queries = 6 WHERE id = 'bench'");
const probeEveryMs = 250;
const drain = '2s';

// The deployment both replicas share, set up in process first (user, workspace, a table, jobs to poll).
const setup = await startTestApp('postgres-s3');
const { user, workspace, server } = await openBenchWorkspace(setup, 'rolling');
await server.stop();
await setup.infra.store.run(roomyPlan, {});
await pushOk(setup, workspace.id, user, {
  table: 'bench.events',
  records: Array.from({ length: 1_000 }, (_, i) => ({ id: i, kind: ['a', 'b', 'c'][i % 3], amount: i % 97 })),
});
for (let table = 0; table < pushTables; table++)
  await pushOk(setup, workspace.id, user, { table: `bench.pushed_${table}`, records: [{ id: 0, kind: 'seed', amount: 0 }] });
const jobIds = await Promise.all(
  Array.from({ length: 5 }, (_, i) =>
    submitJobOk(setup, user, { sql: `SELECT kind, sum(amount) + ${i} AS total FROM bench.events GROUP BY kind`, workspace_id: workspace.id }),
  ),
);
const sharedEnv: Record<string, string> = { ...serviceEnvOf(setup), SHUTDOWN_DRAIN: drain, SHUTDOWN_GRACE: '30s' };
if (!sharedEnv.DATABASE_URL || !sharedEnv.LAKE_URL) throw new Error('the replicas need Postgres and S3');
// The in-process app only set things up: from here on the two replicas alone serve the deployment.
await setup.services.close();
await setup.infra.close();

interface Replica {
  name: string;
  port: number;
  dataDir: string;
  process: ServiceProcess | undefined;
  ready: boolean;
}

async function startReplica(replica: Replica): Promise<void> {
  replica.process = await startServiceProcess('serve', { ...sharedEnv, DATA_DIR: replica.dataDir, PORT: String(replica.port) });
}

const replicas: Replica[] = await Promise.all(
  ['a', 'b'].map(async (name) => ({
    name,
    port: await freePort(),
    dataDir: mkdtempSync(join(tmpdir(), `oxbow-rolling-${name}-`)),
    process: undefined,
    ready: false,
  })),
);
const baseUrl = (replica: Replica) => `http://127.0.0.1:${replica.port}`;

let probing = true;
let probes: Promise<void>[] = [];
const outcomes: Promise<Outcome>[] = [];
let exitCode: number | undefined;
let restartStartedAt = 0;
let stoppedAt = 0;
let restartEndedAt = 0;

let turn = 0;
async function readyReplica(): Promise<Replica> {
  for (;;) {
    const ready = replicas.filter((replica) => replica.ready);
    if (ready.length) return ready[turn++ % ready.length]!;
    await Bun.sleep(20);
  }
}

type Kind = 'query' | 'push' | 'job_submit' | 'job_poll';
interface Outcome {
  kind: Kind;
  startedAt: number;
  ms: number;
  ok: boolean;
  retried: boolean;
  detail?: string;
}

function requestOf(kind: Kind, sequence: number): { path: string; init: RequestInit } {
  const headers = { authorization: `Bearer ${user.accessToken}`, 'content-type': 'application/json' };
  const post = (path: string, body: unknown) => ({ path, init: { method: 'POST', headers, body: JSON.stringify(body) } });
  switch (kind) {
    case 'query':
      return post(`/api/v1/workspaces/${workspace.id}/query`, {
        sql: `SELECT kind, count(*) AS n, sum(amount) AS total FROM bench.events WHERE id % 7 <> ${sequence % 7} GROUP BY kind ORDER BY kind`,
      });
    case 'push':
      return post(`/api/v1/workspaces/${workspace.id}/push`, {
        table: `bench.pushed_${sequence % pushTables}`,
        records: [{ id: sequence, kind: 'live', amount: sequence % 97 }],
      });
    case 'job_submit':
      return post('/api/v1/query/jobs', { sql: `SELECT count(*) + ${sequence} AS n FROM bench.events`, workspace_id: workspace.id });
    case 'job_poll':
      return { path: `/api/v1/query/jobs/${jobIds[sequence % jobIds.length]}`, init: { headers } };
  }
}

async function send(kind: Kind, sequence: number): Promise<Outcome> {
  const startedAt = performance.now();
  const { path, init } = requestOf(kind, sequence);
  let retried = false;
  for (let attempt = 0; attempt < 2; attempt++) {
    const replica = await readyReplica();
    let response: Response;
    try {
      response = await fetch(`${baseUrl(replica)}${path}`, init);
    } catch (error) {
      return { kind, startedAt, ms: performance.now() - startedAt, ok: false, retried, detail: `${replica.name}: ${(error as Error).message}` };
    }
    const retryAfter = response.headers.get('retry-after');
    if (response.status === 503 && retryAfter !== null && attempt === 0) {
      await response.arrayBuffer();
      retried = true;
      await Bun.sleep(Math.min(Number(retryAfter) * 1000, 2_000));
      continue;
    }
    const body = await response.text();
    const ok = response.status >= 200 && response.status < 300;
    return {
      kind,
      startedAt,
      ms: performance.now() - startedAt,
      ok,
      retried,
      ...(ok ? {} : { detail: `${replica.name}: ${response.status} ${body.slice(0, 200)}` }),
    };
  }
  return { kind, startedAt, ms: performance.now() - startedAt, ok: false, retried, detail: 'unreachable' };
}

const mix: Kind[] = ['query', 'query', 'query', 'query', 'query', 'push', 'push', 'job_poll', 'job_poll', 'job_submit'];

async function runLoadWithRestart(): Promise<void> {
  const loadStartedAt = performance.now();
  const load = (async () => {
    for (let sequence = 0; performance.now() - loadStartedAt < seconds * 1000; sequence++) {
      outcomes.push(send(mix[sequence % mix.length]!, sequence));
      // Open loop: requests leave on the clock, whether or not the earlier ones have been answered.
      const next = loadStartedAt + ((sequence + 1) * 1000) / ratePerSecond;
      await Bun.sleep(Math.max(0, next - performance.now()));
    }
  })();
  // A third of the way in, replica b is stopped as an orchestrator would, then started again.
  await Bun.sleep((seconds * 1000) / 3);
  const restarted = replicas[1]!;
  restartStartedAt = performance.now();
  exitCode = await restarted.process!.stop();
  stoppedAt = performance.now();
  await startReplica(restarted);
  while (!restarted.ready) await Bun.sleep(20);
  restartEndedAt = performance.now();
  await load;
  await Promise.all(outcomes);
}

try {
  await Promise.all(replicas.map(startReplica));
  // The load balancer's health checks.
  probes = replicas.map(async (replica) => {
    while (probing) {
      replica.ready = await fetch(`${baseUrl(replica)}/readyz`, { signal: AbortSignal.timeout(500) }).then(
        (response) => response.status === 200,
        () => false,
      );
      await Bun.sleep(probeEveryMs);
    }
  });
  await runLoadWithRestart();
} finally {
  probing = false;
  await Promise.all(probes);
  await Promise.all(replicas.map((replica) => (replica.process ? replica.process.stop() : Promise.resolve(0))));
  for (const replica of replicas) rmSync(replica.dataDir, { recursive: true, force: true });
  await setup.backend.cleanup();
}
const finished = await Promise.all(outcomes);

const during = finished.filter((outcome) => outcome.startedAt >= restartStartedAt && outcome.startedAt <= restartEndedAt);
const failed = finished.filter((outcome) => !outcome.ok);
const row = (label: string, set: Outcome[]) => ({
  requests: label,
  count: set.length,
  failed: set.filter((outcome) => !outcome.ok).length,
  'retried (503 + Retry-After)': set.filter((outcome) => outcome.retried).length,
  'p50 ms': set.length
    ? Math.round(
        percentile(
          set.map((outcome) => outcome.ms),
          50,
        ),
      )
    : 0,
  'p99 ms': set.length
    ? Math.round(
        percentile(
          set.map((outcome) => outcome.ms),
          99,
        ),
      )
    : 0,
});
report(
  'rolling-restart',
  [
    row('all', finished),
    row('during the restart', during),
    ...mix
      .filter((kind, index) => mix.indexOf(kind) === index)
      .map((kind) =>
        row(
          kind,
          finished.filter((outcome) => outcome.kind === kind),
        ),
      ),
  ],
  {
    seconds,
    rate_per_second: ratePerSecond,
    replica_exit_code: exitCode,
    stop_ms: Math.round(stoppedAt - restartStartedAt),
    restart_window_ms: Math.round(restartEndedAt - restartStartedAt),
    failures: failed.slice(0, 20).map((outcome) => `${outcome.kind}: ${outcome.detail}`),
  },
);
console.log(
  `replica b: SIGTERM → exit ${exitCode} in ${Math.round(stoppedAt - restartStartedAt)} ms; back and ready ${Math.round(restartEndedAt - restartStartedAt)} ms after the signal`,
);
if (failed.length) {
  // The failures by kind and answer (the first 120 characters of each), most frequent first.
  const byAnswer = new Map<string, number>();
  for (const outcome of failed) {
    const answer = `${outcome.kind}: ${(outcome.detail ?? '').slice(0, 120)}`;
    byAnswer.set(answer, (byAnswer.get(answer) ?? 0) + 1);
  }
  const lines = [...byAnswer].sort((a, b) => b[1] - a[1]).map(([answer, count]) => `  ${count} × ${answer}`);
  console.error(`${failed.length} failed requests:\n${lines.join('\n')}`);
  process.exit(1);
}
process.exit(0);
