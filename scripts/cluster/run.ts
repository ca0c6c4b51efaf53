// `npm run cluster -- [--api N] [--workers M] [--port P]`: the production layout on one machine, the
// way the tests start it: a throwaway Postgres, MinIO and Temporal (as `npm test` starts them), then N
// `bun src/main.ts api` processes on ports P, P+1, … and M `bun src/main.ts worker` processes, all with
// the same DATABASE_URL, LAKE_URL, TEMPORAL_ADDRESS and DATA_DIR and nothing else. Put a round-robin
// load balancer in front of the API ports, or send requests to any of them. Ctrl-C stops everything.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import type { Subprocess } from 'bun';
import { readToolchain, projectRoot, toolPaths } from '../setup/toolchain';
import { startTestServices } from '../services/test-services';

interface Options {
  api: number;
  workers: number;
  port: number;
}

function parseOptions(argv: string[]): Options {
  const options: Options = { api: 2, workers: 2, port: 4000 };
  for (let i = 0; i < argv.length; i += 2) {
    const [name, value] = [argv[i], Number(argv[i + 1])];
    if (!Number.isInteger(value) || value < 0) usage(`${name} needs a whole number`);
    if (name === '--api') options.api = value;
    else if (name === '--workers') options.workers = value;
    else if (name === '--port') options.port = value;
    else usage(`unknown option ${name}`);
  }
  if (options.api < 1) usage('at least one api process');
  return options;
}

function usage(problem: string): never {
  console.error(`[cluster] ${problem}\nusage: npm run cluster -- [--api N] [--workers M] [--port P]`);
  process.exit(2);
}

const options = parseOptions(process.argv.slice(2));
const scratch = mkdtempSync(join(tmpdir(), 'oxbow-cluster-'));
const services = await startTestServices(await readToolchain(), toolPaths(process.env.OXBOW_TOOLS_DIR ?? join(projectRoot, '.tools')), scratch);
const { env: found } = services;

const admin = postgres(found.OXBOW_TEST_POSTGRES_URL!, { max: 1, onnotice: () => {} });
await admin.unsafe('CREATE DATABASE oxbow');
await admin.end();
const databaseUrl = new URL(found.OXBOW_TEST_POSTGRES_URL!);
databaseUrl.pathname = '/oxbow';

const dataDir = join(scratch, 'data');
mkdirSync(dataDir, { recursive: true });
const shared: Record<string, string> = {
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl.href,
  LAKE_URL: `s3://${found.OXBOW_TEST_S3_BUCKET}/cluster`,
  AWS_ACCESS_KEY_ID: found.OXBOW_TEST_S3_ACCESS_KEY_ID!,
  AWS_SECRET_ACCESS_KEY: found.OXBOW_TEST_S3_SECRET_ACCESS_KEY!,
  AWS_REGION: found.OXBOW_TEST_S3_REGION!,
  AWS_ENDPOINT_URL_S3: found.OXBOW_TEST_S3_ENDPOINT!,
  TEMPORAL_ADDRESS: found.OXBOW_TEST_TEMPORAL_ADDRESS!,
};

const children: Subprocess[] = [];
const start = (mode: 'api' | 'worker', extra: Record<string, string>) =>
  Bun.spawn([process.execPath, join(projectRoot, 'src', 'main.ts'), mode], {
    cwd: projectRoot,
    env: { ...process.env, ...shared, ...extra },
    stdout: 'inherit',
    stderr: 'inherit',
  });

// The first process applies the migrations; the others would queue on the same lock.
for (let i = 0; i < options.api; i++) children.push(start('api', { PORT: String(options.port + i) }));
for (let i = 0; i < options.workers; i++) children.push(start('worker', {}));

console.log(
  [
    `[cluster] ${options.api} api and ${options.workers} worker processes against ${services.describe()}`,
    `[cluster] API: ${Array.from({ length: options.api }, (_, i) => `http://127.0.0.1:${options.port + i}/api/v1`).join(', ')}`,
    `[cluster] the shared environment (start another replica with it, and a PORT of its own):`,
    ...Object.entries(shared).map(([name, value]) => `  ${name}=${value}`),
  ].join('\n'),
);

let stopping = false;
async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => child.exited));
    await services.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop(0));
// A process that stops on its own is reported; the others go on (as an orchestrator would restart it).
await Promise.all(children.map(async (child) => console.log(`[cluster] process ${child.pid} exited with ${await child.exited}`)));
await stop(0);
