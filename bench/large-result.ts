// A large result through the query endpoint over real HTTP, as JSON and as CSV, against a plain
// in-process DuckDB holding the same rows and turning them into JSON text: what answering many rows costs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { startTestApp } from '../test/support/test-app';
import { openBenchWorkspace } from './bench-workspace';
import { median, report, timed } from './support';

const rows = 100_000;
const batches = 4;
const runs = 7;
const records = Array.from({ length: rows }, (_, i) => ({
  id: i,
  name: `customer ${i}`,
  description: `a description of customer ${i}, longer than the twelve bytes DuckDB keeps inline`,
  city: `city ${i % 500}`,
  quantity: i % 1000,
  price: i * 0.25,
  active: i % 3 === 0,
  ordered_at: `2026-11-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00Z`,
  note: i % 10 === 0 ? null : `note ${i % 97}`,
}));
const sql = 'SELECT * FROM bench.wide';

const t = await startTestApp('local');
const { user, workspace, server } = await openBenchWorkspace(t, 'bench');
const authorization = `Bearer ${user.accessToken}`;
const batchSize = rows / batches;
for (let batch = 0; batch < batches; batch++) {
  const body = JSON.stringify({ table: 'bench.wide', records: records.slice(batch * batchSize, (batch + 1) * batchSize) });
  const response = await fetch(`${server.url}/api/v1/workspaces/${workspace.id}/push`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', authorization },
  });
  if (response.status !== 200) throw new Error(`push failed: ${response.status} ${await response.text()}`);
}

async function answer(format: 'json' | 'csv'): Promise<{ chars: number; columns?: { name: string; type: string }[] }> {
  const response = await fetch(`${server.url}/api/v1/workspaces/${workspace.id}/query`, {
    method: 'POST',
    body: JSON.stringify({ sql, format }),
    headers: { 'content-type': 'application/json', authorization },
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`query failed: ${response.status} ${text.slice(0, 500)}`);
  if (format === 'csv') return { chars: text.length };
  const parsed = JSON.parse(text) as { row_count: number; columns: { name: string; type: string }[] };
  if (parsed.row_count !== rows) throw new Error(`expected ${rows} rows, got ${parsed.row_count}`);
  return { chars: text.length, columns: parsed.columns };
}

// The plain DuckDB holds the same rows with the same column types as the workspace's table.
const { columns = [] } = await answer('json');
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
const scratch = mkdtempSync(join(tmpdir(), 'oxbow-large-result-'));
const recordsPath = join(scratch, 'records.json');
await Bun.write(recordsPath, JSON.stringify(records));
const casts = columns.map((column) => `CAST("${column.name}" AS ${column.type}) AS "${column.name}"`).join(', ');
await connection.run(`CREATE TABLE wide AS SELECT ${casts} FROM read_json('${recordsPath}')`);

const raw: number[] = [];
const json: number[] = [];
const csv: number[] = [];
let jsonChars = 0;
let csvChars = 0;
// Warm-up, then the three take turns run by run.
await answer('json');
await answer('csv');
const rawAnswer = async () => JSON.stringify((await connection.runAndReadAll('SELECT * FROM wide')).getRowsJson()).length;
await rawAnswer();
for (let run = 0; run < runs; run++) {
  raw.push((await timed(rawAnswer)).ms);
  const fromJson = await timed(() => answer('json'));
  json.push(fromJson.ms);
  jsonChars = fromJson.value.chars;
  const fromCsv = await timed(() => answer('csv'));
  csv.push(fromCsv.ms);
  csvChars = fromCsv.value.chars;
}

const rate = (times: number[]) => Math.round(rows / (median(times) / 1000));
report(
  'large-result',
  [
    { measure: `raw DuckDB in process: ${rows} rows to JSON text (median of ${runs})`, ms: median(raw).toFixed(1), rows_per_s: rate(raw) },
    {
      measure: `POST …/query over HTTP, JSON, ${(jsonChars / 1e6).toFixed(1)} M characters (median of ${runs})`,
      ms: median(json).toFixed(1),
      rows_per_s: rate(json),
    },
    {
      measure: `POST …/query over HTTP, CSV, ${(csvChars / 1e6).toFixed(1)} M characters (median of ${runs})`,
      ms: median(csv).toFixed(1),
      rows_per_s: rate(csv),
    },
    { measure: 'JSON over HTTP ÷ raw', ms: (median(json) / median(raw)).toFixed(2), rows_per_s: '' },
  ],
  { columns },
);

await server.stop();
await t.stop();
connection.closeSync();
instance.closeSync();
rmSync(scratch, { recursive: true, force: true });
process.exit(0);
