import { statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { EnvReader, type EnvSource } from './env-reader';
import { readSecrets, type Secrets } from './secrets';
import { parseLakeUrl, type LakeConfig } from './lake-config';
import { readOAuthConfig, type OAuthConfig } from './oauth-config';
import { parseSchedule, type Schedule } from '../schedules/schedule';
import { parseDuration } from '../util/duration';
import { derivedInternalUrl } from '../cluster/internal-address';
import { parseByteSize } from '../util/byte-size';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type SignupMode = 'open' | 'waitlist' | 'closed';

/** `maxConnections`: the metadata pool's size (see docs/operations.md for every Postgres connection a process opens). */
export type MetadataConfig = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; maxConnections: number };

export interface TemporalConfig {
  /** Address of an existing cluster; when absent the service supervises a local dev server. */
  address: string | undefined;
  namespace: string;
  taskQueue: string;
  /**
   * Among worker processes (the api and worker modes on Postgres), each kind of durable work of the
   * workspaces goes to one of this many task queues, each served by one live worker (src/temporal/task-queues.ts).
   */
  workspaceShards: number;
  /** A workflow bundle built ahead (bundleWorkflowCode's `code`, in a file); absent: each worker process builds its own at start. */
  workflowBundle: string | undefined;
  devServer: { cliPath: string; port: number; uiPort: number; dbFile: string };
}

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  logLevel: LogLevel;
  http: {
    host: string;
    port: number;
    publicBaseUrl: string;
    frontendUrl: string;
    trustProxy: boolean;
    /** Browser origins allowed to call the API (CORS); none by default. */
    corsOrigins: string[];
    /** Answers at least this large are compressed when the client accepts it (streams always are). */
    compressionMinBytes: number;
  };
  /**
   * On SIGTERM: how long the process stays reachable while reporting itself not ready (so a load
   * balancer stops sending it requests), then how long requests and activities in flight get to finish.
   */
  shutdown: { drainMs: number; graceMs: number };
  /** `/metrics`: its bearer token, and a listener of its own (off the public one) when a port is given. */
  metrics: { token: string | undefined; host: string; port: number | undefined };
  dataDir: string;
  metadata: MetadataConfig;
  lake: LakeConfig;
  temporal: TemporalConfig;
  cluster: {
    /**
     * Where the other API replicas reach this one with the requests they forward to the owner of a
     * workspace (the HTTP listener itself): INTERNAL_URL, or derived from HOST and PORT. Connections
     * must never reach it.
     */
    internalUrl: URL;
  };
  duckdb: {
    extensionDir: string;
    /**
     * Instances open at once in this process, at most (each workspace has up to two: its queries', its
     * durable work's); a statement that needs another waits for one to close, within its own deadline.
     */
    maxInstances: number;
    /** An instance unused for this long closes. */
    idleCloseMs: number;
    memoryLimit: string;
    /**
     * What the instances' memory limits may add up to in this process: DUCKDB_MEMORY_BUDGET, or three
     * quarters of the memory the process may use (its cgroup's limit, else the machine's). Fewer
     * instances than DUCKDB_MAX_INSTANCES open when their limits would exceed it.
     */
    memoryBudget: string | undefined;
    /** Connections to a Postgres catalog each instance keeps between statements (DuckDB's pool for it). */
    catalogConnections: number;
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
  push: { maxBodyBytes: number; maxUploadBytes: number };
  transforms: {
    /** Nodes of one DAG run that run at once, at most. */
    maxParallel: number;
    /** Time limit of one transform's statement. */
    timeoutMs: number;
    /** How long the run endpoints wait for a run to finish before answering with its current state. */
    runWaitMs: number;
  };
  jobs: {
    /**
     * Query activities a worker runs at once (the slots of the query-job task queue). The workers'
     * total must exceed any one workspace's share (its plan's `max_running_jobs`: Business 4), so
     * another workspace's job always finds a slot.
     */
    concurrency: number;
    /** Jobs exist for long queries: they get their own, longer timeout. */
    timeoutMs: number;
    resultRetentionMs: number;
  };
  maintenance: {
    /** When each workspace's lake maintenance runs: `every <duration>` (a bare duration reads the same) or a 5-field cron in UTC. */
    schedule: Schedule;
    targetFileSizeBytes: number;
    afterWriteSmallFiles: number;
    afterWriteDeleteFiles: number;
  };
  syncs: {
    /** Whether sources may be private or loopback addresses (never the service's own infrastructure). */
    privateNetworks: 'allow' | 'deny';
    /** Listeners of the deployment the service cannot know of itself (an S3 console, an admin UI): no connection reaches them. */
    reservedEndpoints: { host: string; port: number }[];
    /** Rows a batch of a sync reads and commits at most (one snapshot each; a crash resumes after the last). */
    batchRows: number;
    /** Rows a batch holds when a full refresh reads it by a parallel scan of the source table (each batch costs the source a pass over the table). */
    scanBatchRows: number;
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
  billing: {
    /** Unset: setup and the portal answer 503 BILLING_NOT_CONFIGURED; plans and limits apply all the same. */
    stripeSecretKey: string | undefined;
    /** The webhook endpoint's signing secret; unset: the webhook answers 503 BILLING_NOT_CONFIGURED. */
    stripeWebhookSecret: string | undefined;
    stripeApiBase: URL;
    /** The Stripe meter that overage queries are reported to. */
    meterEventName: string;
    /** How often overage is reported. */
    meterReportEvery: string;
  };
  query: {
    timeoutMs: number;
    /** A synchronous result larger than either cap is refused with RESULT_TOO_LARGE (jobs page through any size). */
    maxResultRows: number;
    maxResultBytes: number;
  };
  sharing: {
    /** Views of public charts and pages per minute from one client address, and of one public link. */
    publicViewsPerAddress: number;
    publicViewsPerLink: number;
    /** Chart results (and drawn charts) kept in memory for public views, the least recently used dropped first. */
    publicCacheEntries: number;
  };
  /** The web console's build (made by the set-up from web/), served at `/`. */
  console: { dir: string };
}

const projectRoot = resolve(import.meta.dir, '..', '..');

/** Builds the one validated configuration object from an environment; throws ConfigError naming every bad variable. */
export function loadConfig(source: EnvSource, cwd: string = process.cwd()): Config {
  const env = new EnvReader(source);
  const nodeEnv = env.oneOf('NODE_ENV', ['development', 'production', 'test'], 'development');
  const absolute = (path: string) => (isAbsolute(path) ? path : resolve(cwd, path));
  const optionalPath = (path: string | undefined) => (path === undefined ? undefined : absolute(path));
  const dataDir = absolute(env.string('DATA_DIR', './data'));
  const toolsDir = absolute(env.string('OXBOW_TOOLS_DIR', join(projectRoot, '.tools')));

  const port = env.integer('PORT', 3000, { min: 0, max: 65535 });
  const publicBaseUrl = trimSlash(env.url('PUBLIC_BASE_URL', `http://localhost:${port}`, ['http:', 'https:']).href);
  const databaseUrl = env.optionalUrl('DATABASE_URL', ['postgres:', 'postgresql:']);
  const host = env.string('HOST', '127.0.0.1');

  const config: Config = {
    nodeEnv,
    logLevel: env.oneOf('LOG_LEVEL', ['debug', 'info', 'warn', 'error'], 'info'),
    http: {
      host,
      port,
      publicBaseUrl,
      frontendUrl: trimSlash(env.url('FRONTEND_URL', publicBaseUrl, ['http:', 'https:']).href),
      trustProxy: env.boolean('TRUST_PROXY', false),
      corsOrigins: readCorsOrigins(env),
      compressionMinBytes: env.integer('COMPRESSION_MIN_BYTES', 1024, { min: 0, max: 1024 * 1024 * 1024 }),
    },
    shutdown: {
      drainMs: env.duration('SHUTDOWN_DRAIN', nodeEnv === 'production' ? '5s' : '0s'),
      graceMs: env.duration('SHUTDOWN_GRACE', '30s'),
    },
    metrics: readMetrics(env, nodeEnv === 'production'),
    dataDir,
    metadata: databaseUrl
      ? { kind: 'postgres', url: databaseUrl.href, maxConnections: env.integer('DATABASE_MAX_CONNECTIONS', 10, { min: 1, max: 1_000 }) }
      : { kind: 'sqlite', path: join(dataDir, 'oxbow.sqlite') },
    lake: parseLakeUrl(env, dataDir),
    cluster: { internalUrl: env.optionalUrl('INTERNAL_URL', ['http:']) ?? derivedInternalUrl(host, port) },
    temporal: {
      address: env.optionalString('TEMPORAL_ADDRESS'),
      namespace: env.string('TEMPORAL_NAMESPACE', 'default'),
      taskQueue: env.string('TEMPORAL_TASK_QUEUE', 'oxbow'),
      workspaceShards: env.integer('TEMPORAL_WORKSPACE_SHARDS', 4, { min: 1, max: 256 }),
      workflowBundle: optionalPath(env.optionalString('TEMPORAL_WORKFLOW_BUNDLE')),
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
      idleCloseMs: env.duration('DUCKDB_IDLE_TIMEOUT', '10m'),
      memoryLimit: byteSize(env, 'DUCKDB_MEMORY_LIMIT', '1GB'),
      memoryBudget: env.optionalString('DUCKDB_MEMORY_BUDGET') === undefined ? undefined : byteSize(env, 'DUCKDB_MEMORY_BUDGET', '0'),
      catalogConnections: env.integer('DUCKDB_CATALOG_CONNECTIONS', 1, { min: 0, max: 64 }),
      threads: env.integer('DUCKDB_THREADS', 2, { min: 1, max: 256 }),
      threadNice: env.integer('DUCKDB_THREAD_NICE', 10, { min: 0, max: 19 }),
      readConnections: env.integer('DUCKDB_READ_CONNECTIONS', 8, { min: 1, max: 64 }),
      tempDir: join(dataDir, 'tmp'),
      profileDir: absolute(env.string('DUCKDB_PROFILE_DIR', defaultProfileDir(dataDir))),
      statements: {
        running: env.integer('ENGINE_MAX_RUNNING_STATEMENTS', 16, { min: 1, max: 10_000 }),
        queued: env.integer('ENGINE_MAX_QUEUED_STATEMENTS', 1024, { min: 0, max: 100_000 }),
        queuedPerWorkspace: env.integer('ENGINE_MAX_QUEUED_PER_WORKSPACE', 64, { min: 0, max: 10_000 }),
      },
    },
    transforms: {
      maxParallel: env.integer('TRANSFORM_MAX_PARALLEL', 4, { min: 1, max: 64 }),
      timeoutMs: env.duration('TRANSFORM_TIMEOUT', '30m'),
      runWaitMs: env.duration('TRANSFORM_RUN_WAIT', '5s'),
    },
    jobs: {
      concurrency: env.integer('QUERY_JOB_CONCURRENCY', 6, { min: 1, max: 256 }),
      timeoutMs: env.duration('QUERY_JOB_TIMEOUT', '10m'),
      resultRetentionMs: env.duration('JOB_RESULT_RETENTION', '7d'),
    },
    push: {
      maxBodyBytes: env.integer('PUSH_MAX_BODY_BYTES', 100 * 1024 * 1024, { min: 1024, max: 1024 * 1024 * 1024 }),
      // An upload streams to disk, never into memory: its limit bounds the disk one request may take.
      maxUploadBytes: env.integer('PUSH_MAX_UPLOAD_BYTES', 10 * 1024 * 1024 * 1024, { min: 1024, max: 2 ** 50 }),
    },
    maintenance: {
      schedule: scheduleSetting(env, 'MAINTENANCE_INTERVAL', 'every 6h'),
      targetFileSizeBytes: env.integer('MAINTENANCE_TARGET_FILE_SIZE_BYTES', 512 * 1024 * 1024, { min: 1024 * 1024, max: 4 * 1024 * 1024 * 1024 }),
      afterWriteSmallFiles: env.integer('MAINTENANCE_AFTER_WRITE_SMALL_FILES', 64, { min: 0, max: 1_000_000 }),
      afterWriteDeleteFiles: env.integer('MAINTENANCE_AFTER_WRITE_DELETE_FILES', 16, { min: 0, max: 1_000_000 }),
    },
    syncs: {
      privateNetworks: env.oneOf('CONNECTOR_PRIVATE_NETWORKS', ['allow', 'deny'], nodeEnv === 'production' ? 'deny' : 'allow'),
      reservedEndpoints: readEndpoints(env, 'CONNECTOR_RESERVED_ENDPOINTS'),
      batchRows: env.integer('SYNC_BATCH_ROWS', 500_000, { min: 1, max: 100_000_000 }),
      scanBatchRows: env.integer('SYNC_SCAN_BATCH_ROWS', 2_000_000, { min: 1, max: 1_000_000_000 }),
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
    billing: {
      stripeSecretKey: env.optionalString('STRIPE_SECRET_KEY'),
      stripeWebhookSecret: env.optionalString('STRIPE_WEBHOOK_SECRET'),
      stripeApiBase: env.url('STRIPE_API_BASE', 'https://api.stripe.com', ['http:', 'https:']),
      meterEventName: env.string('STRIPE_METER_EVENT_NAME', 'oxbow_overage_queries'),
      meterReportEvery: durationText(env, 'METER_REPORT_INTERVAL', '10m'),
    },
    query: {
      timeoutMs: env.integer('QUERY_TIMEOUT_MS', 30_000, { min: 100, max: 3_600_000 }),
      maxResultRows: env.integer('QUERY_MAX_RESULT_ROWS', 1_000_000, { min: 1, max: 100_000_000 }),
      maxResultBytes: env.integer('QUERY_MAX_RESULT_BYTES', 64 * 1024 * 1024, { min: 1024, max: 4 * 1024 * 1024 * 1024 }),
    },
    sharing: {
      publicViewsPerAddress: env.integer('PUBLIC_VIEWS_PER_ADDRESS', 120, { min: 1, max: 10_000_000 }),
      publicViewsPerLink: env.integer('PUBLIC_VIEWS_PER_LINK', 3_000, { min: 1, max: 10_000_000 }),
      publicCacheEntries: env.integer('PUBLIC_CACHE_ENTRIES', 500, { min: 1, max: 100_000 }),
    },
    console: { dir: absolute(env.string('CONSOLE_DIR', join(projectRoot, 'web', 'dist'))) },
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

/** A duration kept as its text (a Temporal interval such as `10m`), checked here like the others. */
/** A schedule setting, by the rules of every schedule of the service; a bare duration (`6h`) means `every 6h`. */
function scheduleSetting(env: EnvReader, name: string, fallback: string): Schedule {
  const text = env.string(name, fallback).trim();
  const schedule = parseSchedule(parseDuration(text) === undefined ? text : `every ${text}`, { minimumIntervalMs: 60_000 });
  if ('problem' in schedule) return env.reject(name, schedule.problem, parseSchedule(fallback, { minimumIntervalMs: 0 }) as Schedule);
  return schedule;
}

function durationText(env: EnvReader, name: string, fallback: string): string {
  env.duration(name, fallback);
  return env.string(name, fallback);
}

/** A size as DuckDB reads one (`1GB`, `512MiB`), kept as its text. */
function byteSize(env: EnvReader, name: string, fallback: string): string {
  const text = env.string(name, fallback);
  if (parseByteSize(text) === undefined) env.reject(name, 'must be a size such as 512MB or 2GiB', undefined);
  return text;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** `host:port` entries (or URLs) separated by commas or spaces. */
function readEndpoints(env: EnvReader, name: string): { host: string; port: number }[] {
  const entries = (env.optionalString(name) ?? '').split(/[\s,]+/).filter(Boolean);
  return entries.flatMap((entry) => {
    try {
      const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(entry) ? entry : `tcp://${entry}`);
      const port = Number(url.port) || { 'http:': 80, 'https:': 443 }[url.protocol];
      if (!url.hostname || !port) throw new Error('no port');
      return [{ host: url.hostname.replace(/^\[|\]$/g, ''), port }];
    } catch {
      return env.reject(name, `must list host:port entries, got "${entry}"`, []);
    }
  });
}

/**
 * `CORS_ALLOWED_ORIGINS`: comma-separated origins (`https://app.example.com`), exactly as a browser
 * sends them in `Origin`; `*` is refused, since a list is what lets an operator see who may call.
 */
function readCorsOrigins(env: EnvReader): string[] {
  const text = env.optionalString('CORS_ALLOWED_ORIGINS');
  if (text === undefined) return [];
  const origins = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin) {
      env.reject(
        'CORS_ALLOWED_ORIGINS',
        `has "${origin}", which is not an origin such as https://app.example.com (scheme, host and port only, no path or trailing slash)`,
        undefined,
      );
    }
  }
  return origins;
}

/**
 * `/metrics` tells about every tenant's load: in production it needs a token, or a listener of its
 * own (METRICS_PORT, bound to METRICS_HOST) that only the scraper reaches.
 */
function readMetrics(env: EnvReader, production: boolean): Config['metrics'] {
  const token = env.optionalString('METRICS_TOKEN');
  const port = env.optionalString('METRICS_PORT') === undefined ? undefined : env.integer('METRICS_PORT', 9464, { min: 1, max: 65535 });
  if (token !== undefined && token.length < 16) env.reject('METRICS_TOKEN', 'must have at least 16 characters', undefined);
  if (production && token === undefined && port === undefined)
    env.reject('METRICS_TOKEN', 'is required in production unless METRICS_PORT serves the metrics on a listener of their own', undefined);
  return { token, host: env.string('METRICS_HOST', '127.0.0.1'), port };
}
