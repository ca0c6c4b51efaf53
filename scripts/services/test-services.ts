import { join } from 'node:path';
import { postgresBinDir } from '../setup/steps/postgres';
import type { Toolchain, ToolPaths } from '../setup/toolchain';
import { startPostgresCluster } from '../../test/support/services/postgres-cluster';
import { startMinio } from '../../test/support/services/minio-server';
import { startStripeMock } from '../../test/support/services/stripe-mock-server';
import { TemporalDevServer } from '../../src/temporal/dev-server';
import { createLogger } from '../../src/logging/logger';
import { freePort, onFreePorts } from '../../src/process/ports';

export interface TestServices {
  /** What the tests and benchmarks read to find the services (see test/support/test-env.ts). */
  env: Record<string, string>;
  describe(): string;
  stop(): Promise<void>;
}

/**
 * Two throwaway Postgres clusters (one for the service's metadata, one for the databases connections
 * read: a connection may never reach the service's own database server), MinIO, a Temporal dev server
 * and stripe-mock, each on a free port, started side by side.
 */
export async function startTestServices(toolchain: Toolchain, paths: ToolPaths, scratchDir: string): Promise<TestServices> {
  const started = await Promise.allSettled([
    startPostgresCluster(postgresBinDir(toolchain.postgresMajor)),
    startPostgresCluster(postgresBinDir(toolchain.postgresMajor)),
    startMinio(join(paths.binDir, 'minio')),
    startTemporal(paths, scratchDir),
    startStripeMock(join(paths.binDir, 'stripe-mock')),
  ]);
  const stopAll = () =>
    Promise.allSettled(started.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.stop() : Promise.resolve()))).then(() => undefined);
  const failure = started.find((outcome) => outcome.status === 'rejected');
  if (failure) {
    await stopAll();
    throw (failure as PromiseRejectedResult).reason;
  }
  const [postgres, sourcePostgres, minio, temporal, stripe] = started.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as [
    Awaited<ReturnType<typeof startPostgresCluster>>,
    Awaited<ReturnType<typeof startPostgresCluster>>,
    Awaited<ReturnType<typeof startMinio>>,
    TemporalDevServer,
    Awaited<ReturnType<typeof startStripeMock>>,
  ];
  return {
    env: {
      OXBOW_TEST_POSTGRES_URL: postgres.url,
      OXBOW_TEST_SOURCE_POSTGRES_URL: sourcePostgres.url,
      OXBOW_TEST_S3_ENDPOINT: minio.endpoint,
      OXBOW_TEST_S3_ACCESS_KEY_ID: minio.accessKeyId,
      OXBOW_TEST_S3_SECRET_ACCESS_KEY: minio.secretAccessKey,
      OXBOW_TEST_S3_REGION: minio.region,
      OXBOW_TEST_S3_BUCKET: minio.bucket,
      OXBOW_TEST_TEMPORAL_ADDRESS: temporal.address,
      OXBOW_TEST_TEMPORAL_UI_URL: temporal.uiUrl,
      OXBOW_TEST_STRIPE_API_BASE: stripe.apiBase,
      OXBOW_TOOLS_DIR: paths.toolsDir,
    },
    describe: () => `postgres (metadata, sources), minio ${minio.endpoint}, temporal ${temporal.address}, stripe-mock ${stripe.apiBase}`,
    stop: stopAll,
  };
}

/** The dev server on free ports, started again on others when one was taken before it bound it. */
function startTemporal(paths: ToolPaths, scratchDir: string): Promise<TemporalDevServer> {
  return onFreePorts(async (attempt) =>
    TemporalDevServer.start({
      cliPath: join(paths.binDir, 'temporal'),
      host: '127.0.0.1',
      port: await freePort(),
      uiPort: await freePort(),
      namespace: 'default',
      logFile: join(scratchDir, `temporal-${attempt}.log`),
      logger: createLogger({ level: 'warn' }),
    }),
  );
}
