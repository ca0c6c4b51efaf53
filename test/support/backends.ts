import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { loadConfig, type Config, type EnvSource } from '../../src/config';
import { testEnv } from './test-env';

/** The two deployments every store and engine suite runs against. */
export type Backend = 'local' | 'postgres-s3';
export const backends: readonly Backend[] = ['local', 'postgres-s3'];

export interface TestBackend {
  backend: Backend;
  config: Config;
  /** Drops the database, the lake prefix's bucket contents are left to the test, the temp dir goes. */
  cleanup(): Promise<void>;
}

const uniqueSuffix = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/**
 * A fresh, isolated deployment: its own DATA_DIR; on `postgres-s3` its own Postgres database and its
 * own key prefix in the test bucket. Extra environment entries override the defaults.
 */
export async function createTestBackend(backend: Backend, env: EnvSource = {}): Promise<TestBackend> {
  const dataDir = mkdtempSync(join(tmpdir(), 'oxbow-test-'));
  const base: EnvSource = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'error',
    DATA_DIR: dataDir,
    OXBOW_TOOLS_DIR: testEnv.toolsDir(),
    TEMPORAL_ADDRESS: testEnv.temporalAddress(),
    // The Web UI of that dev server: the service knows it, so no connection reaches it.
    TEMPORAL_UI_PORT: new URL(testEnv.temporalUiUrl()).port,
    TEMPORAL_TASK_QUEUE: `test-${uniqueSuffix()}`,
    TEMPORAL_WORKFLOW_BUNDLE: testEnv.workflowBundle(),
    JWT_SECRET: 'test-jwt-secret-that-is-long-enough-0123456789',
    ENCRYPTION_KEY: '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
  };
  let dropDatabase = async () => {};
  if (backend === 'postgres-s3') {
    const database = await createDatabase();
    dropDatabase = database.drop;
    const s3 = testEnv.s3();
    Object.assign(base, {
      DATABASE_URL: database.url,
      LAKE_URL: `s3://${s3.bucket}/run-${uniqueSuffix()}`,
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
      AWS_REGION: s3.region,
      AWS_ENDPOINT_URL_S3: s3.endpoint,
    });
  }
  const config = loadConfig({ ...base, ...env });
  return {
    backend,
    config,
    async cleanup() {
      await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A new database in a test cluster (the metadata's unless `adminUrl` names another); dropped
 * (disconnecting anyone left) by `drop`. The cluster's locale is C; `locale` gives the database
 * another one (UTF-8 encoding), such as `C.UTF-8`.
 */
export async function createDatabase(options: { adminUrl?: string; locale?: string } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = options.adminUrl ?? testEnv.postgresUrl();
  const name = `oxbow_test_${uniqueSuffix()}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const locale = options.locale === undefined ? '' : ` TEMPLATE template0 ENCODING 'UTF8' LOCALE '${options.locale.replaceAll("'", "''")}'`;
  await admin.unsafe(`CREATE DATABASE ${name}${locale}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const cleanup = postgres(adminUrl, { max: 1, onnotice: () => {} });
      // A database a replication slot still reads cannot be dropped: its slots go first.
      await cleanup.unsafe(`SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE database = '${name}' AND NOT active`);
      await cleanup.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
