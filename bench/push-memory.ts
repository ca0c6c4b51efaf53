// A large NDJSON upload (1 GB unless BENCH_UPLOAD_BYTES says otherwise) streamed through
// `POST /workspaces/{id}/push`, measuring how far the service's resident memory grows over its level
// before the upload (target: less than 256 MB). The records are made as the request streams, never
// held whole by the client either; the service runs in this process, so its RSS is the process's.
import { startTestApp } from '../test/support/test-app';
import { openBenchWorkspace } from './bench-workspace';
import { report } from './support';

const targetBytes = Number(process.env.BENCH_UPLOAD_BYTES ?? 1_000_000_000);
const rss = () => process.memoryUsage().rss;

const t = await startTestApp('local', { env: { PUSH_MAX_UPLOAD_BYTES: String(2 * targetBytes + 1_000_000) } });
const { user, workspace, server } = await openBenchWorkspace(t, 'bench-memory');
const push = (body: ReadableStream<Uint8Array> | string, table: string) =>
  fetch(`${server.url}/api/v1/workspaces/${workspace.id}/push?table=${table}`, { method: 'POST', body, headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${user.accessToken}` } });

// A small push first: the workspace's engine is open and warm before the baseline is taken.
await push('{"id":0,"name":"warm"}\n', 'bench.warm');
Bun.gc(true);
const baseline = rss();

let sent = 0;
let records = 0;
const encoder = new TextEncoder();
const body = new ReadableStream<Uint8Array>({
  pull(controller) {
    if (sent >= targetBytes) return controller.close();
    const lines: string[] = [];
    for (let i = 0; i < 2_000; i++, records++) {
      lines.push(JSON.stringify({ id: records, quantity: records % 1000, price: records * 0.25, name: `customer ${records}`, active: records % 3 === 0, ordered_at: '2026-11-21T10:00:00Z', city: `city ${records % 500}`, note: 'x'.repeat(40) }));
    }
    const chunk = encoder.encode(`${lines.join('\n')}\n`);
    sent += chunk.byteLength;
    controller.enqueue(chunk);
  },
});

let peak = baseline;
const sampler = setInterval(() => (peak = Math.max(peak, rss())), 50);
const started = performance.now();
const response = await push(body, 'bench.large');
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
peak = Math.max(peak, rss());
if (response.status !== 200) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
const answer = (await response.json()) as { records_written: number };
if (answer.records_written !== records) throw new Error(`${answer.records_written} records written of ${records}`);

const mb = (bytes: number) => Math.round(bytes / 1_000_000);
report('push-memory', [
  { measure: `NDJSON upload of ${mb(sent)} MB (${records} records)`, value: `${seconds.toFixed(1)} s, ${(sent / 1_000_000 / seconds).toFixed(1)} MB/s`, ms: Math.round(seconds * 1000) },
  { measure: 'resident memory before the upload', value: `${mb(baseline)} MB`, ms: '' },
  { measure: 'resident memory at its highest during the upload', value: `${mb(peak)} MB`, ms: '' },
  { measure: 'growth (target < 256 MB)', value: `${mb(peak - baseline)} MB`, ms: '' },
], { bytes: sent, records, baseline_rss: baseline, peak_rss: peak, seconds });

await server.stop();
await t.stop();
process.exit(0);
