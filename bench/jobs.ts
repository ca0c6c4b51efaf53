// Query jobs end to end: a trivial job's submit → succeeded latency as a client polling its status
// sees it, and the sustained rate of jobs finished with two query slots.
import { startTestApp } from '../test/support/test-app';
import { openBenchWorkspace } from './bench-workspace';
import { median, percentile, report } from './support';

const latencyRuns = 100;
const throughputJobs = 300;
const pollMs = 5;
// Hundreds of clients polling every 5 ms would measure the polling; they poll as a dashboard would.
const sustainedPollMs = 1_000;

const t = await startTestApp('local', { worker: true, env: { QUERY_JOB_CONCURRENCY: '2', LOG_LEVEL: 'warn' } });
const { user, workspace, server } = await openBenchWorkspace(t, 'bench');
const headers = { 'content-type': 'application/json', authorization: `Bearer ${user.accessToken}` };

async function submit(sql: string): Promise<string> {
  const response = await fetch(`${server.url}/api/v1/query/jobs`, { method: 'POST', headers, body: JSON.stringify({ sql, workspace_id: workspace.id }) });
  if (response.status !== 200) throw new Error(`submit failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { job_id: string }).job_id;
}

async function waitSucceeded(jobId: string, interval = pollMs): Promise<void> {
  for (;;) {
    const status = ((await (await fetch(`${server.url}/api/v1/query/jobs/${jobId}?limit=1`, { headers })).json()) as { status: string }).status;
    if (status === 'succeeded') return;
    if (status === 'failed' || status === 'cancelled') throw new Error(`job ${jobId} ended ${status}`);
    await Bun.sleep(interval);
  }
}

for (let i = 0; i < 10; i++) await waitSucceeded(await submit('SELECT 1'));
const latencies: number[] = [];
for (let i = 0; i < latencyRuns; i++) {
  const startedAt = performance.now();
  await waitSucceeded(await submit(`SELECT ${i} AS i`));
  latencies.push(performance.now() - startedAt);
}

const startedAt = performance.now();
const ids = await Promise.all(Array.from({ length: throughputJobs }, (_, i) => submit(`SELECT ${i} AS i`)));
await Promise.all(ids.map((id) => waitSucceeded(id, sustainedPollMs)));
const seconds = (performance.now() - startedAt) / 1000;

report('jobs', [
  { measure: `trivial job, submit → succeeded, p50 (${latencyRuns} jobs, status polled every ${pollMs} ms; target ≤ 100 ms)`, value: `${median(latencies).toFixed(1)} ms` },
  { measure: 'trivial job, submit → succeeded, p99', value: `${percentile(latencies, 99).toFixed(1)} ms` },
  { measure: `sustained: ${throughputJobs} jobs submitted at once, 2 query slots, status polled every ${sustainedPollMs} ms`, value: `${(throughputJobs / seconds).toFixed(1)} jobs/s (${seconds.toFixed(1)} s in all)` },
]);

await server.stop();
await t.stop();
process.exit(0);
