// `npm test`: type-checks, starts the real services the tests need (a throwaway Postgres cluster,
// MinIO and a Temporal dev server, each on a free port), runs every bun:test suite against them and
// stops them all, also when tests fail or the run is interrupted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readToolchain, projectRoot, toolPaths } from '../setup/toolchain';
import { postgresBinDir } from '../setup/steps/postgres';
import { startPostgresCluster, type PostgresCluster } from '../../test/support/services/postgres-cluster';
import { startMinio, type MinioServer } from '../../test/support/services/minio-server';
import { TemporalDevServer } from '../../src/temporal/dev-server';
import { createLogger } from '../../src/logging/logger';
import { freePort } from '../../src/process/ports';

const testArgs = process.argv.slice(2);
const toolchain = await readToolchain();
const paths = toolPaths(process.env.OXBOW_TOOLS_DIR ?? join(projectRoot, '.tools'));

const typecheck = Bun.spawnSync([join(projectRoot, 'node_modules', '.bin', 'tsc'), '--noEmit', '-p', projectRoot], { stdout: 'inherit', stderr: 'inherit' });
if (typecheck.exitCode !== 0) {
  console.error('[test] type check failed');
  process.exit(1);
}

const scratch = mkdtempSync(join(tmpdir(), 'oxbow-test-run-'));
let postgres: PostgresCluster | undefined;
let minio: MinioServer | undefined;
let temporal: TemporalDevServer | undefined;
let tests: ReturnType<typeof Bun.spawn> | undefined;

async function stopServices(): Promise<void> {
  await Promise.allSettled([postgres?.stop(), minio?.stop(), temporal?.stop()]);
  rmSync(scratch, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    tests?.kill('SIGTERM');
    await stopServices();
    process.exit(130);
  });
}

let exitCode = 1;
try {
  const startedAt = performance.now();
  [postgres, minio, temporal] = await Promise.all([
    startPostgresCluster(postgresBinDir(toolchain.postgresMajor)),
    startMinio(join(paths.binDir, 'minio')),
    startTestTemporal(),
  ]);
  console.log(`[test] services up in ${Math.round(performance.now() - startedAt)} ms: postgres, minio ${minio.endpoint}, temporal ${temporal.address}`);

  tests = Bun.spawn([process.execPath, 'test', '--randomize', '--timeout', '120000', ...testArgs], {
    cwd: projectRoot,
    stdout: 'inherit',
    stderr: 'inherit',
    env: {
      ...process.env,
      OXBOW_TEST_POSTGRES_URL: postgres.url,
      OXBOW_TEST_S3_ENDPOINT: minio.endpoint,
      OXBOW_TEST_S3_ACCESS_KEY_ID: minio.accessKeyId,
      OXBOW_TEST_S3_SECRET_ACCESS_KEY: minio.secretAccessKey,
      OXBOW_TEST_S3_REGION: minio.region,
      OXBOW_TEST_S3_BUCKET: minio.bucket,
      OXBOW_TEST_TEMPORAL_ADDRESS: temporal.address,
      OXBOW_TOOLS_DIR: paths.toolsDir,
    },
  });
  exitCode = await tests.exited;
} catch (error) {
  console.error('[test] could not start the test services:', error);
} finally {
  await stopServices();
}
process.exit(exitCode);

async function startTestTemporal(): Promise<TemporalDevServer> {
  return TemporalDevServer.start({
    cliPath: join(paths.binDir, 'temporal'),
    host: '127.0.0.1',
    port: await freePort(),
    uiPort: await freePort(),
    namespace: 'default',
    logFile: join(scratch, 'temporal.log'),
    logger: createLogger({ level: 'warn' }),
  });
}
