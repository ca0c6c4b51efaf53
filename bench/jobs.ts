// Query jobs end to end: a trivial job's submit → succeeded latency as a client polling its status
// sees it; another tenant's trivial jobs while one tenant keeps a backlog of long priority-10 jobs
// (its share of the capacity running, the rest waiting); and the sustained rate of one workspace's
// jobs. BENCH_JOBS_SCALE (default 1) scales the number of runs, e.g. 0.1 for a quick check.
import { startTestApp } from '../test/support/test-app';
import { createVerifiedUser } from '../test/support/accounts';
import { createWorkspace } from '../test/support/workspaces';
import { slowSql, useJobsPlan } from '../test/support/jobs';
import { openBenchWorkspace } from './bench-workspace';
import { median, percentile, report } from './support';

const scale = Number(process.env.BENCH_JOBS_SCALE ?? 1);
const runs = (count: number) => Math.max(5, Math.round(count * scale));
const latencyRuns = runs(100);
const fairnessRuns = runs(50);
const backlogJobs = 12;
const throughputJobs = runs(300);
const pollMs = 5;
// Hundreds of clients polling every 5 ms would measure the polling; they poll as a dashboard would.
const sustainedPollMs = 1_000;
/** The share of the busy tenant and of the sustained workspace: Business's. */
const share = 4;

// The default job capacity (QUERY_JOB_CONCURRENCY 6): larger than any plan's share.
const t = await startTestApp('local', { worker: true, env: { LOG_LEVEL: 'warn' } });
const { user, workspace, server } = await openBenchWorkspace(t, 'bench');
const busy = await createVerifiedUser(t, 'bench-busy');
const busyWorkspace = (await createWorkspace(t, busy, 'bench-busy')).id;
await useJobsPlan(t, busyWorkspace, share);

const headersOf = (token: string) => ({ 'content-type': 'application/json', authorization: `Bearer ${token}` });

async function submit(sql: string, options: { workspaceId?: string; token?: string; priority?: number } = {}): Promise<string> {
  const body = JSON.stringify({ sql, workspace_id: options.workspaceId ?? workspace.id, priority: options.priority ?? 5 });
  const response = await fetch(`${server.url}/api/v1/query/jobs`, { method: 'POST', headers: headersOf(options.token ?? user.accessToken), body });
  if (response.status !== 200) throw new Error(`submit failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { job_id: string }).job_id;
}

async function waitSucceeded(jobId: string, interval = pollMs): Promise<void> {
  for (;;) {
    const status = (
      (await (await fetch(`${server.url}/api/v1/query/jobs/${jobId}?limit=1`, { headers: headersOf(user.accessToken) })).json()) as { status: string }
    ).status;
    if (status === 'succeeded') return;
    if (status === 'failed' || status === 'cancelled') throw new Error(`job ${jobId} ended ${status}`);
    await Bun.sleep(interval);
  }
}

async function timedTrivialJobs(count: number, priority: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const startedAt = performance.now();
    await waitSucceeded(await submit(`SELECT ${i} AS i`, { priority }));
    latencies.push(performance.now() - startedAt);
  }
  return latencies;
}

for (let i = 0; i < 10; i++) await waitSucceeded(await submit('SELECT 1'));
const idle = await timedTrivialJobs(latencyRuns, 5);

// The busy tenant's backlog: long jobs at the highest priority, more than its share, kept up throughout.
const backlog: string[] = [];
for (let i = 0; i < backlogJobs; i++) backlog.push(await submit(slowSql(50_000 + i), { workspaceId: busyWorkspace, token: busy.accessToken, priority: 10 }));
await Bun.sleep(2_000);
const underBacklog = await timedTrivialJobs(fairnessRuns, 1);
for (const jobId of backlog) await fetch(`${server.url}/api/v1/query/jobs/${jobId}/cancel`, { method: 'POST', headers: headersOf(busy.accessToken) });

await useJobsPlan(t, workspace.id, share);
const startedAt = performance.now();
const ids = await Promise.all(Array.from({ length: throughputJobs }, (_, i) => submit(`SELECT ${i} AS i`)));
await Promise.all(ids.map((id) => waitSucceeded(id, sustainedPollMs)));
const seconds = (performance.now() - startedAt) / 1000;

report('jobs', [
  {
    measure: `trivial job, submit → succeeded, p50 (${latencyRuns} jobs, status polled every ${pollMs} ms; target ≤ 100 ms)`,
    value: `${median(idle).toFixed(1)} ms`,
  },
  { measure: 'trivial job, submit → succeeded, p99', value: `${percentile(idle, 99).toFixed(1)} ms` },
  {
    measure: `B's trivial priority-1 job while A keeps ${backlogJobs} long priority-10 jobs (${share} running), submit → succeeded, p50 (${fairnessRuns} jobs)`,
    value: `${median(underBacklog).toFixed(1)} ms`,
  },
  { measure: "B's trivial job under A's backlog, p99 (target ≤ 2 s)", value: `${percentile(underBacklog, 99).toFixed(1)} ms` },
  {
    measure: `sustained: ${throughputJobs} jobs of one workspace submitted at once (${share} running at a time), status polled every ${sustainedPollMs} ms`,
    value: `${(throughputJobs / seconds).toFixed(1)} jobs/s (${seconds.toFixed(1)} s in all)`,
  },
]);

await server.stop();
await t.stop();
process.exit(0);
