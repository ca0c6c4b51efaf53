// Small pushes over HTTP while the same workspace's catalog is read without pause (the storage
// check's read of DuckLake's metadata), on the local backend's embedded SQLite catalog: how long each
// takes, how many take a second or more, and how often the catalog's write-ahead log was removed.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp } from '../test/support/test-app';
import { openBenchWorkspace } from './bench-workspace';
import { median, percentile, report } from './support';

const pushes = 300;
const t = await startTestApp('local');
const { user, workspace, server } = await openBenchWorkspace(t, 'contention');
const wal = join(t.backend.config.dataDir, 'catalogs', `${workspace.id}.sqlite-wal`);

const pushMs: number[] = [];
const readMs: number[] = [];
let writing = true;
let walRemoved = 0;

const writer = (async () => {
  for (let i = 0; i < pushes; i++) {
    const startedAt = performance.now();
    const response = await fetch(`${server.url}/api/v1/workspaces/${workspace.id}/push`, {
      method: 'POST',
      body: JSON.stringify({ table: 'bench.contended', records: [{ i }] }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.accessToken}` },
    });
    if (response.status !== 200) throw new Error(`push answered ${response.status}: ${await response.text()}`);
    pushMs.push(performance.now() - startedAt);
  }
  writing = false;
})();
const reader = (async () => {
  while (writing) {
    const startedAt = performance.now();
    await t.services.tables.storageBytes(workspace.id);
    readMs.push(performance.now() - startedAt);
  }
})();
// SQLite removes the log when the last connection to the file closes; the next opener recovers it.
const watcher = (async () => {
  let present = true;
  while (writing) {
    const now = existsSync(wal);
    if (present && !now) walRemoved++;
    present = now;
    await Bun.sleep(1);
  }
})();
await Promise.all([writer, reader, watcher]);

const slow = (values: number[]) => values.filter((ms) => ms >= 900).length;
const row = (measure: string, values: number[]) => ({
  measure,
  p50_ms: median(values).toFixed(1),
  p99_ms: percentile(values, 99).toFixed(1),
  max_ms: Math.max(...values).toFixed(1),
  'at least 0.9 s': `${slow(values)} of ${values.length}`,
});
report(
  'catalog-contention',
  [
    row(`push of 1 record (${pushes} in a row)`, pushMs),
    row('catalog read (storage check) meanwhile', readMs),
    { measure: 'write-ahead log removed', p50_ms: '', p99_ms: '', max_ms: '', 'at least 0.9 s': `${walRemoved} times` },
  ],
  { push_ms: pushMs },
);

await server.stop();
await t.stop();
process.exit(0);
