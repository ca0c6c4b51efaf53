import { describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';

const tempDir = () => mkdtempSync(join(tmpdir(), 'oxbow-config-'));
const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig({ DATA_DIR: tempDir(), ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('configuration', () => {
  test('embedded defaults: SQLite metadata and a local lake under DATA_DIR, a supervised Temporal', () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.http).toEqual({
      host: '127.0.0.1',
      port: 3000,
      publicBaseUrl: 'http://localhost:3000',
      frontendUrl: 'http://localhost:3000',
      trustProxy: false,
      corsOrigins: [],
      compressionMinBytes: 1024,
    });
    expect(config.shutdown).toEqual({ drainMs: 0, graceMs: 30_000 });
    expect(config.metadata).toEqual({ kind: 'sqlite', path: join(dataDir, 'oxbow.sqlite') });
    expect(config.lake).toEqual({ kind: 'local', root: join(dataDir, 'lake') });
    expect(config.temporal.address).toBeUndefined();
    expect(config.temporal).toMatchObject({ namespace: 'default', taskQueue: 'oxbow', devServer: { port: 7233, uiPort: 8233 } });
    expect(config.auth).toEqual({ signupMode: 'open', accountRetentionMs: 30 * 86_400_000 });
    expect(config.query).toEqual({ timeoutMs: 30_000, maxResultRows: 1_000_000, maxResultBytes: 64 * 1024 * 1024 });
  });

  test('production settings: Postgres, S3 with a custom endpoint, a Temporal cluster', () => {
    const config = loadConfig({
      DATA_DIR: tempDir(),
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://oxbow:secret@db:5432/oxbow',
      LAKE_URL: 's3://lake-bucket/tenants/',
      AWS_ACCESS_KEY_ID: 'AKIA',
      AWS_SECRET_ACCESS_KEY: 'shh',
      AWS_REGION: 'eu-west-3',
      AWS_ENDPOINT_URL_S3: 'https://s3.example.net',
      TEMPORAL_ADDRESS: 'temporal:7233',
      JWT_SECRET: 'x'.repeat(40),
      ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      METRICS_TOKEN: 'scrape-token-of-the-cluster',
    });
    expect(config.metadata).toEqual({ kind: 'postgres', url: 'postgres://oxbow:secret@db:5432/oxbow', maxConnections: 10 });
    expect(config.metrics).toEqual({ token: 'scrape-token-of-the-cluster', host: '127.0.0.1', port: undefined });
    expect(config.lake).toEqual({
      kind: 's3',
      bucket: 'lake-bucket',
      prefix: 'tenants',
      region: 'eu-west-3',
      endpoint: 'https://s3.example.net',
      accessKeyId: 'AKIA',
      secretAccessKey: 'shh',
    });
    expect(config.temporal.address).toBe('temporal:7233');
    expect(config.secrets.encryptionKey).toEqual(Buffer.alloc(32, 7));
  });

  test('CORS origins: a list of exact origins, none by default; anything else is refused by name', () => {
    expect(loadConfig({ DATA_DIR: tempDir(), CORS_ALLOWED_ORIGINS: 'https://app.example.com, http://localhost:5173' }).http.corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
    for (const bad of ['*', 'https://app.example.com/', 'app.example.com', 'https://app.example.com/console', 'ftp://files.example.com']) {
      expect(problemsOf({ CORS_ALLOWED_ORIGINS: bad })).toEqual([expect.stringMatching(/^CORS_ALLOWED_ORIGINS has /)]);
    }
  });

  test('shutdown: production waits for load balancers to notice before closing the listener', () => {
    const production = {
      DATA_DIR: tempDir(),
      NODE_ENV: 'production',
      JWT_SECRET: 'x'.repeat(40),
      ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      METRICS_PORT: '9464',
    };
    expect(loadConfig(production).shutdown).toEqual({ drainMs: 5_000, graceMs: 30_000 });
    expect(loadConfig({ ...production, SHUTDOWN_DRAIN: '15s', SHUTDOWN_GRACE: '2m' }).shutdown).toEqual({ drainMs: 15_000, graceMs: 120_000 });
    expect(problemsOf({ SHUTDOWN_GRACE: 'soon' })).toEqual([expect.stringMatching(/^SHUTDOWN_GRACE /)]);
  });

  test('metrics in production: behind a token of 16 characters or more, or on a listener of their own', () => {
    const production = { DATA_DIR: tempDir(), NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') };
    expect(problemsOf(production)).toEqual([expect.stringContaining('METRICS_TOKEN is required in production')]);
    expect(problemsOf({ ...production, METRICS_TOKEN: 'short' })).toEqual([expect.stringMatching(/^METRICS_TOKEN /)]);
    expect(problemsOf({ ...production, METRICS_PORT: '9464' })).toEqual([]);
  });

  test('every bad value is reported at once, each naming its variable', () => {
    const problems = problemsOf({ PORT: 'eighty', SIGNUP_MODE: 'sometimes', ACCOUNT_RETENTION: 'forever', LAKE_URL: 'ftp://x', DATABASE_URL: 'mysql://x' });
    expect(problems).toHaveLength(5);
    for (const name of ['PORT', 'SIGNUP_MODE', 'ACCOUNT_RETENTION', 'LAKE_URL', 'DATABASE_URL']) {
      expect(problems.some((problem) => problem.startsWith(`${name} `))).toBe(true);
    }
  });

  test('an S3 lake without credentials is refused', () => {
    const problems = problemsOf({ LAKE_URL: 's3://bucket' });
    expect(problems).toEqual([expect.stringContaining('AWS_ACCESS_KEY_ID'), expect.stringContaining('AWS_SECRET_ACCESS_KEY')]);
  });

  test('production requires JWT_SECRET and ENCRYPTION_KEY', () => {
    const problems = problemsOf({ NODE_ENV: 'production' });
    expect(problems).toContain('JWT_SECRET is required when NODE_ENV=production');
    expect(problems).toContain('ENCRYPTION_KEY is required when NODE_ENV=production');
  });

  test('weak or malformed secrets are refused', () => {
    const problems = problemsOf({ JWT_SECRET: 'short', ENCRYPTION_KEY: 'abcd' });
    expect(problems).toEqual([expect.stringContaining('JWT_SECRET must be at least'), expect.stringContaining('ENCRYPTION_KEY must be 32 bytes')]);
  });

  test('outside production, missing secrets are generated once into DATA_DIR and reused', () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(second.secrets.jwtSecret).toBe(first.secrets.jwtSecret);
    expect(second.secrets.encryptionKey.equals(first.secrets.encryptionKey)).toBe(true);
    const file = join(dataDir, 'secrets', 'jwt_secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first.secrets.jwtSecret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
