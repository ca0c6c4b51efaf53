import { statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { EnvReader, type EnvSource } from './env-reader';
import { readSecrets, type Secrets } from './secrets';
import { parseLakeUrl, type LakeConfig } from './lake-config';
import { readOAuthConfig, type OAuthConfig } from './oauth-config';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type SignupMode = 'open' | 'waitlist' | 'closed';

export type MetadataConfig = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

export interface TemporalConfig {
  /** Address of an existing cluster; when absent the service supervises a local dev server. */
  address: string | undefined;
  namespace: string;
  taskQueue: string;
  devServer: { cliPath: string; port: number; uiPort: number; dbFile: string };
}

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  logLevel: LogLevel;
  http: { host: string; port: number; publicBaseUrl: string; frontendUrl: string; trustProxy: boolean };
  dataDir: string;
  metadata: MetadataConfig;
  lake: LakeConfig;
  temporal: TemporalConfig;
  duckdb: {
    extensionDir: string;
    /** Workspaces whose DuckDB instance stays open at once; the least recently used idle one closes first. */
    maxInstances: number;
    memoryLimit: string;
    threads: number;
    /** Niceness of DuckDB's worker threads: the service's own threads win the CPU over tenants' queries. */
    threadNice: number;
    /** Connections per workspace instance that run reads side by side. */
    readConnections: number;
    /** Each workspace instance gets its own spill directory under here. */
    tempDir: string;
    /** Each workspace instance writes its query profiles into a folder of its own under here. */
    profileDir: string;
    /** Admission of tenants' statements (queries, pushes) in one process. */
    statements: { running: number; queued: number; queuedPerWorkspace: number };
  };
  push: { maxBodyBytes: number };
  jobs: {
    /** Query activities a worker runs at once (the slots of the query-job task queue). */
    concurrency: number;
    /** Jobs exist for long queries: they get their own, longer timeout. */
    timeoutMs: number;
    resultRetentionMs: number;
  };
  maintenance: { every: string; targetFileSizeBytes: number };
  syncs: {
    /** Whether sources may be private or loopback addresses (never the service's own database, bucket or Temporal). */
    privateNetworks: 'allow' | 'deny';
    /** Rows a batch of a sync reads and commits at most (one snapshot each; a crash resumes after the last). */
    batchRows: number;
    /** Streams of one sync that run at once. */
    streamParallelism: number;
    /** Stream activities one worker runs at once (the slots of the sync task queue). */
    workerConcurrency: number;
    /** The shortest `every` a connection's schedule may have. */
    minScheduleIntervalMs: number;
    /** Memory of each short-lived sync instance. */
    memoryLimit: string;
    /** The longest one stream of a sync may run. */
    streamTimeoutMs: number;
  };
  secrets: Secrets;
  /** The CRM providers connections authorize with (OAuth 2.0 clients and endpoints). */
  oauth: OAuthConfig;
  mail: { smtpUrl: URL | undefined; from: string };
  auth: { signupMode: SignupMode; accountRetentionMs: number };
  query: {
    timeoutMs: number;
    /** A synchronous result larger than either cap is refused with RESULT_TOO_LARGE (jobs page through any size). */
    maxResultRows: number;
    maxResultBytes: number;
  };
}

const projectRoot = resolve(import.meta.dir, '..', '..');

/** Builds the one validated configuration object from an environment; throws ConfigError naming every bad variable. */
export function loadConfig(source: EnvSource, cwd: string = process.cwd()): Config {
  const env = new EnvReader(source);
  const nodeEnv = env.oneOf('NODE_ENV', ['development', 'production', 'test'], 'development');
  const absolute = (path: string) => (isAbsolute(path) ? path : resolve(cwd, path));
  const dataDir = absolute(env.string('DATA_DIR', './data'));
  const toolsDir = absolute(env.string('OXBOW_TOOLS_DIR', join(projectRoot, '.tools')));

  const port = env.integer('PORT', 3000, { min: 0, max: 65535 });
  const publicBaseUrl = trimSlash(env.url('PUBLIC_BASE_URL', `http://localhost:${port}`, ['http:', 'https:']).href);
  const databaseUrl = env.optionalUrl('DATABASE_URL', ['postgres:', 'postgresql:']);

  const config: Config = {
    nodeEnv,
    logLevel: env.oneOf('LOG_LEVEL', ['debug', 'info', 'warn', 'error'], 'info'),
    http: {
      host: env.string('HOST', '127.0.0.1'),
      port,
      publicBaseUrl,
      frontendUrl: trimSlash(env.url('FRONTEND_URL', publicBaseUrl, ['http:', 'https:']).href),
      trustProxy: env.boolean('TRUST_PROXY', false),
    },
    dataDir,
    metadata: databaseUrl ? { kind: 'postgres', url: databaseUrl.href } : { kind: 'sqlite', path: join(dataDir, 'oxbow.sqlite') },
    lake: parseLakeUrl(env, dataDir),
    temporal: {
      address: env.optionalString('TEMPORAL_ADDRESS'),
      namespace: env.string('TEMPORAL_NAMESPACE', 'default'),
      taskQueue: env.string('TEMPORAL_TASK_QUEUE', 'oxbow'),
      devServer: {
        cliPath: absolute(env.string('TEMPORAL_CLI', join(toolsDir, 'bin', 'temporal'))),
        port: env.integer('TEMPORAL_PORT', 7233, { min: 1, max: 65535 }),
        uiPort: env.integer('TEMPORAL_UI_PORT', 8233, { min: 1, max: 65535 }),
        dbFile: join(dataDir, 'temporal.sqlite'),
      },
    },
    duckdb: {
      extensionDir: absolute(env.string('DUCKDB_EXTENSION_DIR', join(toolsDir, 'duckdb-extensions'))),
      maxInstances: env.integer('DUCKDB_MAX_INSTANCES', 16, { min: 1, max: 10_000 }),
      memoryLimit: env.string('DUCKDB_MEMORY_LIMIT', '1GB'),
      threads: env.integer('DUCKDB_THREADS', 2, { min: 1, max: 256 }),
      threadNice: env.integer('DUCKDB_THREAD_NICE', 10, { min: 0, max: 19 }),
      readConnections: env.integer('DUCKDB_READ_CONNECTIONS', 8, { min: 1, max: 64 }),
      tempDir: join(dataDir, 'tmp'),
      profileDir: absolute(env.string('DUCKDB_PROFILE_DIR', defaultProfileDir(dataDir))),
      statements: {
        running: env.integer('ENGINE_MAX_RUNNING_STATEMENTS', 16, { min: 1, max: 10_000 }),
        queued: env.integer('ENGINE_MAX_QUEUED_STATEMENTS', 256, { min: 0, max: 100_000 }),
        queuedPerWorkspace: env.integer('ENGINE_MAX_QUEUED_PER_WORKSPACE', 16, { min: 0, max: 10_000 }),
      },
    },
    jobs: {
      concurrency: env.integer('QUERY_JOB_CONCURRENCY', 2, { min: 1, max: 256 }),
      timeoutMs: env.duration('QUERY_JOB_TIMEOUT', '10m'),
      resultRetentionMs: env.duration('JOB_RESULT_RETENTION', '7d'),
    },
    push: { maxBodyBytes: env.integer('PUSH_MAX_BODY_BYTES', 100 * 1024 * 1024, { min: 1024, max: 1024 * 1024 * 1024 }) },
    maintenance: {
      every: env.string('MAINTENANCE_INTERVAL', '6h'),
      targetFileSizeBytes: env.integer('MAINTENANCE_TARGET_FILE_SIZE_BYTES', 128 * 1024 * 1024, { min: 1024 * 1024, max: 4 * 1024 * 1024 * 1024 }),
    },
    syncs: {
      privateNetworks: env.oneOf('CONNECTOR_PRIVATE_NETWORKS', ['allow', 'deny'], nodeEnv === 'production' ? 'deny' : 'allow'),
      batchRows: env.integer('SYNC_BATCH_ROWS', 500_000, { min: 1, max: 100_000_000 }),
      streamParallelism: env.integer('SYNC_STREAM_PARALLELISM', 2, { min: 1, max: 64 }),
      workerConcurrency: env.integer('SYNC_WORKER_CONCURRENCY', 2, { min: 1, max: 256 }),
      minScheduleIntervalMs: env.duration('SYNC_MIN_INTERVAL', '1m'),
      memoryLimit: env.string('SYNC_MEMORY_LIMIT', '1GB'),
      streamTimeoutMs: env.duration('SYNC_STREAM_TIMEOUT', '6h'),
    },
    secrets: readSecrets(env, dataDir, nodeEnv === 'production'),
    oauth: readOAuthConfig(env),
    mail: {
      smtpUrl: env.optionalUrl('SMTP_URL', ['smtp:', 'smtps:']),
      from: env.string('MAIL_FROM', 'Oxbow <no-reply@oxbow.local>'),
    },
    auth: {
      signupMode: env.oneOf('SIGNUP_MODE', ['open', 'waitlist', 'closed'], 'open'),
      accountRetentionMs: env.duration('ACCOUNT_RETENTION', '30d'),
    },
    query: {
      timeoutMs: env.integer('QUERY_TIMEOUT_MS', 30_000, { min: 100, max: 3_600_000 }),
      maxResultRows: env.integer('QUERY_MAX_RESULT_ROWS', 1_000_000, { min: 1, max: 100_000_000 }),
      maxResultBytes: env.integer('QUERY_MAX_RESULT_BYTES', 64 * 1024 * 1024, { min: 1024, max: 4 * 1024 * 1024 * 1024 }),
    },
  };
  env.finish();
  return config;
}

/** A memory-backed folder where the host has one: profiles are written after every query. */
function defaultProfileDir(dataDir: string): string {
  const shm = '/dev/shm';
  const onShm = statSync(shm, { throwIfNoEntry: false })?.isDirectory() ?? false;
  return onShm ? join(shm, `oxbow-profiles-${process.getuid?.() ?? 0}`) : join(dataDir, 'tmp', 'profiles');
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
