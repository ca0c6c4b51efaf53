// Single-record pushes sent at a steady rate into ONE table over real HTTP (an open load: each is sent
// on time whether or not the ones before it answered), as the rolling-restart load's pushes are:
// whether the table keeps up, how long a push takes, and how many snapshots the pushes became (the
// pushes that queue on a table while it commits share the next commit).
import { startTestApp } from '../test/support/test-app';
import type { Backend } from '../test/support/backends';
import { openBenchWorkspace } from './bench-workspace';
import { median, percentile, report } from './support';

const rate = Number(process.env.PUSH_BURST_RATE ?? 20);
const seconds = Number(process.env.PUSH_BURST_SECONDS ?? 30);
const backend = (process.env.PUSH_BURST_BACKEND ?? 'postgres-s3') as Backend;
const table = 'bench.burst';

const t = await startTestApp(backend);
const { user, workspace, server } = await openBenchWorkspace(t, 'burst');
const headers = { 'content-type': 'application/json', authorization: `Bearer ${user.accessToken}` };
const pushUrl = `${server.url}/api/v1/workspaces/${workspace.id}/push`;
const pushOne = (i: number) =>
  fetch(pushUrl, { method: 'POST', body: JSON.stringify({ table, records: [{ i, at: new Date().toISOString(), note: `push ${i}` }] }), headers });
// The table exists before the clock starts: its creation is not what is measured.
if ((await pushOne(-1)).status !== 200) throw new Error('the first push failed');

const latencies: number[] = [];
const failures = new Map<number, number>();
const sends: Promise<void>[] = [];
const startedAt = performance.now();
let lastAnswerAt = startedAt;
for (let i = 0; i < rate * seconds; i++) {
  const due = startedAt + (i * 1000) / rate;
  const wait = due - performance.now();
  if (wait > 0) await Bun.sleep(wait);
  sends.push(
    (async () => {
      const sentAt = performance.now();
      const response = await pushOne(i);
      await response.arrayBuffer();
      lastAnswerAt = Math.max(lastAnswerAt, performance.now());
      if (response.status === 200) latencies.push(performance.now() - sentAt);
      else failures.set(response.status, (failures.get(response.status) ?? 0) + 1);
    })(),
  );
}
await Promise.all(sends);
const elapsedS = (lastAnswerAt - startedAt) / 1000;

const history = await t.request(`/api/v1/workspaces/${workspace.id}/query/tables/${table}/history?limit=1`, { token: user.accessToken });
const snapshots = Number(history.headers.get('x-total-count')) - 1;
const failed = [...failures].map(([status, count]) => `${count} × ${status}`).join(', ') || '0';
report(
  'push-burst',
  [
    { measure: `pushes sent (${rate}/s for ${seconds} s, ${backend})`, value: rate * seconds },
    { measure: 'failed', value: failed },
    { measure: 'answered per second (sent ÷ time to the last answer)', value: (latencies.length / elapsedS).toFixed(1) },
    { measure: 'snapshots the pushes became', value: snapshots },
    { measure: 'commits per second', value: (snapshots / elapsedS).toFixed(1) },
    { measure: 'push p50 (ms)', value: median(latencies).toFixed(0) },
    { measure: 'push p99 (ms)', value: percentile(latencies, 99).toFixed(0) },
  ],
  { rate, seconds, backend, push_ms: latencies },
);

await server.stop();
await t.stop();
process.exit(failures.size > 0 ? 1 : 0);
