// Uploads of the same 100,000 records × 10 columns as NDJSON and as Parquet through
// `POST /workspaces/{id}/push` over real HTTP, against DuckDB's own `INSERT … FROM read_json` and
// `read_parquet` of the same files into an equivalent DuckLake table, on the same instance, in the
// same run. BENCH_ROWS makes it smaller (to check that it runs).
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { startTestApp } from '../test/support/test-app';
import { openBenchWorkspace } from './bench-workspace';
import { median, report, timed } from './support';
import { orderColumns, orderRecord } from './orders-records';

const rows = Number(process.env.BENCH_ROWS ?? 100_000);
const runs = 3;

const scratch = mkdtempSync(join(tmpdir(), 'oxbow-bench-files-'));
const ndjson = join(scratch, 'records.ndjson');
const parquet = join(scratch, 'records.parquet');
const lines = Array.from({ length: rows }, (_, i) => JSON.stringify(orderRecord(i)));
await Bun.write(ndjson, `${lines.join('\n')}\n`);
{
  // The Parquet file holds the same rows with the table's own types.
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run(
    `COPY (SELECT * FROM read_json('${ndjson}', columns = {${orderColumns
      .split(', ')
      .map((c) => `'${c.split(' ')[0]}': '${c.split(' ')[1]}'`)
      .join(', ')}})) TO '${parquet}' (FORMAT parquet)`,
  );
  connection.closeSync();
  instance.closeSync();
}

const t = await startTestApp('local');
const { user, workspace, server } = await openBenchWorkspace(t, 'bench-files');

async function upload(file: string, contentType: string, table: string): Promise<number> {
  const { ms, value } = await timed(() =>
    fetch(`${server.url}/api/v1/workspaces/${workspace.id}/push?table=${table}`, {
      method: 'POST',
      body: Bun.file(file),
      headers: { 'content-type': contentType, authorization: `Bearer ${user.accessToken}` },
    }),
  );
  if (value.status !== 200) throw new Error(`upload failed: ${value.status} ${await value.text()}`);
  return ms;
}

/** DuckDB's own reader into an equivalent lake table, on the workspace's instance (the file copied into its folder first, untimed). */
async function ownInsert(file: string, reader: string, table: string): Promise<number> {
  return t.services.engine.engines.with(workspace.id, (engine) =>
    engine.writeCatalog(async (connection) => {
      const local = join(engine.stagingDir, basename(file));
      copyFileSync(file, local);
      await connection.run('CREATE SCHEMA IF NOT EXISTS bench');
      await connection.run(`CREATE TABLE bench.${table} (${orderColumns})`);
      const { ms } = await timed(() => connection.run(`INSERT INTO bench.${table} SELECT * FROM system.main.${reader}('${local}')`));
      rmSync(local, { force: true });
      return ms;
    }),
  );
}

const results = { ndjsonHttp: [] as number[], ndjsonOwn: [] as number[], parquetHttp: [] as number[], parquetOwn: [] as number[] };
for (let run = 0; run < runs; run++) {
  // Taking turns, so that a busy moment of the machine weighs on both sides alike.
  results.ndjsonHttp.push(await upload(ndjson, 'application/x-ndjson', `bench.ndjson_${run}`));
  results.ndjsonOwn.push(await ownInsert(ndjson, 'read_json', `own_json_${run}`));
  results.parquetHttp.push(await upload(parquet, 'application/vnd.apache.parquet', `bench.parquet_${run}`));
  results.parquetOwn.push(await ownInsert(parquet, 'read_parquet', `own_parquet_${run}`));
}

const rate = (ms: number[]) => rows / (median(ms) / 1000);
report(
  'push-files',
  [
    {
      measure: `NDJSON upload of ${rows} records × 10 columns over HTTP (median of ${runs})`,
      value: `${Math.round(rate(results.ndjsonHttp))} rows/s`,
      ms: Math.round(median(results.ndjsonHttp)),
    },
    {
      measure: `DuckDB's own INSERT … FROM read_json of the same file (median of ${runs})`,
      value: `${Math.round(rate(results.ndjsonOwn))} rows/s`,
      ms: Math.round(median(results.ndjsonOwn)),
    },
    { measure: 'NDJSON upload ÷ read_json (target ≥ 0.8)', value: (rate(results.ndjsonHttp) / rate(results.ndjsonOwn)).toFixed(2), ms: '' },
    {
      measure: `Parquet upload over HTTP (median of ${runs})`,
      value: `${Math.round(rate(results.parquetHttp))} rows/s`,
      ms: Math.round(median(results.parquetHttp)),
    },
    {
      measure: `DuckDB's own INSERT … FROM read_parquet of the same file (median of ${runs})`,
      value: `${Math.round(rate(results.parquetOwn))} rows/s`,
      ms: Math.round(median(results.parquetOwn)),
    },
    { measure: 'Parquet upload ÷ read_parquet (target ≥ 0.8)', value: (rate(results.parquetHttp) / rate(results.parquetOwn)).toFixed(2), ms: '' },
  ],
  { ...results, rows, ndjson_bytes: Bun.file(ndjson).size, parquet_bytes: Bun.file(parquet).size },
);

await server.stop();
await t.stop();
rmSync(scratch, { recursive: true, force: true });
process.exit(0);
