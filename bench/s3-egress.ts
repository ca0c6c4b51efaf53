// S3 reads of connections go through the egress proxy (every connection DuckDB opens checked and
// pinned, on a thread of its own): what that costs. The same Parquet files on MinIO are read by a sync
// instance's DuckDB directly and through the proxy, taking turns, after one untimed read of each.
// BENCH_S3_EGRESS_MB sets how much data (default 256 MB in 8 files).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config';
import { EgressProxy } from '../src/connectors/egress-proxy';
import { createDuckDBInstance } from '../src/engine/duckdb/create-instance';
import { EngineConnection } from '../src/engine/duckdb/engine-connection';
import { createS3SourceSecret } from '../src/engine/sync/source-attachments';
import { sqlString } from '../src/engine/sql-literals';
import { testEnv } from '../test/support/test-env';
import { median, report, timed } from './support';

const megabytes = Number(process.env.BENCH_S3_EGRESS_MB ?? 256);
const files = 8;
const runs = 5;
const s3 = testEnv.s3();
const prefix = `bench-s3-egress-${Date.now().toString(36)}`;
const scratch = mkdtempSync(join(tmpdir(), 'oxbow-bench-egress-'));
const config = loadConfig({ DATA_DIR: scratch, OXBOW_TOOLS_DIR: testEnv.toolsDir() });
const endpoint = new URL(s3.endpoint);
const proxy = new EgressProxy({ reserved: { endpoints: [] }, allowPrivate: true });

/** A sync instance's engine with a secret for the bucket, through the proxy or not. */
async function engine(throughProxy: boolean): Promise<{ connection: EngineConnection; close: () => void }> {
  const instance = await createDuckDBInstance({
    extensionDir: config.duckdb.extensionDir,
    memoryLimit: config.syncs.memoryLimit,
    threads: config.duckdb.threads,
    tempDirectory: scratch,
    extensions: ['httpfs'],
  });
  const connection = new EngineConnection(await instance.connect());
  const route = throughProxy ? await proxy.route() : undefined;
  await createS3SourceSecret(connection, 'source_s3', {
    scope: `s3://${s3.bucket}/`,
    region: s3.region,
    endpoint: endpoint.host,
    useSsl: false,
    urlStyle: 'path',
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    proxy: route && { address: route.proxy, username: route.username, password: route.password },
  });
  return {
    connection,
    close: () => {
      route?.close();
      connection.closeSync();
      instance.closeSync();
    },
  };
}

// Random doubles do not compress: each file is about its share of the size.
const writer = await engine(false);
const rowsPerFile = Math.round((megabytes * 1024 * 1024) / files / 16);
for (let file = 0; file < files; file++) {
  await writer.connection.run(
    `COPY (SELECT random() AS a, random() AS b FROM range(${rowsPerFile})) TO ${sqlString(`s3://${s3.bucket}/${prefix}/part-${file}.parquet`)} (FORMAT parquet)`,
  );
}
writer.close();

async function read(throughProxy: boolean): Promise<number> {
  const { connection, close } = await engine(throughProxy);
  try {
    const { ms, value } = await timed(() =>
      connection.read(`SELECT count(*), sum(a) FROM read_parquet(${sqlString(`s3://${s3.bucket}/${prefix}/*.parquet`)})`),
    );
    if (Number(value.getRows()[0]![0]) !== rowsPerFile * files) throw new Error('a read missed rows');
    return ms;
  } finally {
    close();
  }
}

await read(false);
await read(true);
const direct: number[] = [];
const proxied: number[] = [];
for (let run = 0; run < runs; run++) {
  direct.push(await read(false));
  proxied.push(await read(true));
}
await proxy.stop();
rmSync(scratch, { recursive: true, force: true });

const rate = (ms: number) => `${Math.round(megabytes / (ms / 1000))} MB/s`;
report('s3-egress', [
  {
    measure: `${megabytes} MB of Parquet in ${files} files on MinIO, read by DuckDB directly (median of ${runs})`,
    value: rate(median(direct)),
    ms: Math.round(median(direct)),
  },
  { measure: '… through the egress proxy', value: rate(median(proxied)), ms: Math.round(median(proxied)) },
  { measure: 'proxied ÷ direct time', value: (median(proxied) / median(direct)).toFixed(2), ms: '' },
]);
