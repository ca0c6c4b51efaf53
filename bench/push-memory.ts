// A large NDJSON upload (1 GB unless BENCH_UPLOAD_BYTES says otherwise) streamed through
// `POST /workspaces/{id}/push`, measuring how far the service's resident memory grows over its level
// before the upload (target: less than 256 MB). The service runs in this process; the client, which
// makes the records as the request streams, runs in a process of its own (ndjson-upload-client.ts).
import { join } from 'node:path';
import { startTestApp } from '../test/support/test-app';
import { openBenchWorkspace } from './bench-workspace';
import { report } from './support';

const targetBytes = Number(process.env.BENCH_UPLOAD_BYTES ?? 1_000_000_000);
const rss = () => process.memoryUsage().rss;
const mb = (bytes: number) => Math.round(bytes / 1_000_000);

const t = await startTestApp('local', { env: { PUSH_MAX_UPLOAD_BYTES: String(2 * targetBytes + 1_000_000) } });
const { user, workspace, server } = await openBenchWorkspace(t, 'bench-memory');
const pushUrl = (table: string) => `${server.url}/api/v1/workspaces/${workspace.id}/push?table=${table}`;

// A small push first: the workspace's engine is open and warm before the baseline is taken.
const warm = await fetch(pushUrl('bench.warm'), {
  method: 'POST',
  body: '{"id":0,"name":"warm"}\n',
  headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${user.accessToken}` },
});
if (warm.status !== 200) throw new Error(`warm-up push failed: ${warm.status}`);
Bun.gc(true);
const baseline = rss();

let peak = baseline;
const started = performance.now();
const trace: [seconds: number, rssMb: number][] = [];
const sampler = setInterval(() => {
  const now = rss();
  peak = Math.max(peak, now);
  trace.push([Math.round((performance.now() - started) / 100) / 10, mb(now)]);
}, 100);
const client = Bun.spawn([process.execPath, join(import.meta.dir, 'ndjson-upload-client.ts'), pushUrl('bench.large'), user.accessToken, String(targetBytes)], {
  stdout: 'pipe',
  stderr: 'inherit',
});
const output = await new Response(client.stdout).text();
await client.exited;
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
peak = Math.max(peak, rss());
const { status, answer, sent, records } = JSON.parse(output) as { status: number; answer: string; sent: number; records: number };
if (status !== 200) throw new Error(`upload failed: ${status} ${answer}`);
const written = (JSON.parse(answer) as { records_written: number }).records_written;
if (written !== records) throw new Error(`${written} records written of ${records}`);

report(
  'push-memory',
  [
    {
      measure: `NDJSON upload of ${mb(sent)} MB (${records} records)`,
      value: `${seconds.toFixed(1)} s, ${(sent / 1_000_000 / seconds).toFixed(1)} MB/s`,
      ms: Math.round(seconds * 1000),
    },
    { measure: 'resident memory of the service before the upload', value: `${mb(baseline)} MB`, ms: '' },
    { measure: 'resident memory at its highest during the upload', value: `${mb(peak)} MB`, ms: '' },
    { measure: 'growth (target < 256 MB)', value: `${mb(peak - baseline)} MB`, ms: '' },
  ],
  { bytes: sent, records, baseline_rss: baseline, peak_rss: peak, seconds, rss_trace_mb: trace },
);

await server.stop();
await t.stop();
process.exit(0);
