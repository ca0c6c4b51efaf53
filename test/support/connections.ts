import { expect } from 'bun:test';
import postgres from 'postgres';
import { createDatabase } from './backends';
import { testEnv } from './test-env';
import { bodyOf } from './http';
import type { TestUser } from './accounts';
import type { TestApp } from './test-app';

/** A database of its own in the sources' test cluster, as a connection's source, with a client to fill it. */
export interface SourceDatabase {
  url: string;
  name: string;
  sql: postgres.Sql;
  drop(): Promise<void>;
}

export async function createSourceDatabase(): Promise<SourceDatabase> {
  const database = await createDatabase({ adminUrl: testEnv.sourcePostgresUrl() });
  const sql = postgres(database.url, { max: 2, onnotice: () => {} });
  return {
    url: database.url,
    name: new URL(database.url).pathname.slice(1),
    sql,
    async drop() {
      await sql.end();
      await database.drop();
    },
  };
}

/** The spec of a postgres connection to the database (the test cluster trusts its users: any password). */
export function postgresSpec(database: SourceDatabase, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const url = new URL(database.url);
  return {
    host: url.hostname,
    port: Number(url.port),
    database: database.name,
    username: decodeURIComponent(url.username),
    password: 'not-checked-here',
    ssl_mode: 'disable',
    ...extra,
  };
}

export const connectionsPath = (workspaceId: string) => `/api/v1/workspaces/${workspaceId}/connections`;

export async function createConnection(t: TestApp, user: TestUser, workspaceId: string, body: Record<string, unknown>): Promise<Response> {
  return t.request(connectionsPath(workspaceId), { method: 'POST', json: body, token: user.accessToken });
}

export async function createConnectionOk(t: TestApp, user: TestUser, workspaceId: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const response = await createConnection(t, user, workspaceId, body);
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
  return bodyOf(response);
}

export async function triggerSync(t: TestApp, user: TestUser, workspaceId: string, connectionId: string, body?: unknown): Promise<Response> {
  return t.request(`${connectionsPath(workspaceId)}/${connectionId}/sync`, { method: 'POST', json: body, token: user.accessToken });
}

export async function triggerSyncOk(t: TestApp, user: TestUser, workspaceId: string, connectionId: string, body?: unknown): Promise<string> {
  const response = await triggerSync(t, user, workspaceId, connectionId, body);
  if (response.status !== 202) throw new Error(`sync failed to start: ${response.status} ${await response.text()}`);
  return (await bodyOf(response)).job_id;
}

export async function syncJob(t: TestApp, user: TestUser, workspaceId: string, connectionId: string, jobId: string): Promise<Record<string, any>> {
  const response = await t.request(`${connectionsPath(workspaceId)}/${connectionId}/sync-jobs/${jobId}`, { token: user.accessToken });
  expect(response.status).toBe(200);
  return bodyOf(response);
}

/** Polls the job until it reaches one of the states. */
export async function waitForSync(
  t: TestApp,
  user: TestUser,
  workspaceId: string,
  connectionId: string,
  jobId: string,
  states: string[] = ['succeeded', 'failed', 'cancelled'],
  timeoutMs = 90_000,
): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await syncJob(t, user, workspaceId, connectionId, jobId);
    if (states.includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`sync job ${jobId} stayed ${job.status}: ${JSON.stringify(job)}`);
    await Bun.sleep(150);
  }
}

/**
 * Polls a running sync until its first stream's counts say it is midway (`midway`), for a test that
 * kills its worker there; throws when the job ends or two minutes pass first.
 */
export async function syncMidway(
  t: TestApp,
  user: TestUser,
  workspaceId: string,
  connectionId: string,
  jobId: string,
  midway: (stream: { records_read?: number; records_written?: number }) => boolean,
): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const job = await syncJob(t, user, workspaceId, connectionId, jobId);
    if (midway(job.streams[0] ?? {})) return;
    if (Date.now() > deadline || !['pending', 'running'].includes(job.status)) throw new Error(`never caught the job midway: ${JSON.stringify(job)}`);
    await Bun.sleep(20);
  }
}

/** Triggers a sync and waits for it to succeed. */
export async function syncOk(t: TestApp, user: TestUser, workspaceId: string, connectionId: string, body?: unknown): Promise<Record<string, any>> {
  const jobId = await triggerSyncOk(t, user, workspaceId, connectionId, body);
  const job = await waitForSync(t, user, workspaceId, connectionId, jobId);
  if (job.status !== 'succeeded') throw new Error(`sync ${jobId} ended ${job.status}: ${JSON.stringify(job)}`);
  return job;
}

/**
 * A query's answer through the HTTP interface (rows as objects): status and body. When the workspace's
 * per-minute limit refuses it, the test clock moves on by the Retry-After it was given and the query is
 * sent again: the clock moves only as far as the limit asks, so however often a test looks, its access
 * token stays in its lifetime.
 */
export async function queryAnswer(t: TestApp, user: TestUser, workspaceId: string, sql: string): Promise<{ status: number; body: any }> {
  const send = () => t.request(`/api/v1/workspaces/${workspaceId}/query`, { method: 'POST', json: { sql, format: 'objects' }, token: user.accessToken });
  let response = await send();
  for (let retries = 0; response.status === 429 && retries < 3; retries++) {
    t.clock.advance(Number(response.headers.get('retry-after') ?? 60) * 1_000);
    response = await send();
  }
  return { status: response.status, body: await bodyOf(response) };
}

/** Rows of a query (see queryAnswer); any other answer than 200 fails the test. */
export async function queryRows(t: TestApp, user: TestUser, workspaceId: string, sql: string): Promise<Record<string, unknown>[]> {
  const { status, body } = await queryAnswer(t, user, workspaceId, sql);
  if (status !== 200) throw new Error(`query failed: ${status} ${JSON.stringify(body)}`);
  return body.data;
}

/**
 * A reader of its own for the source, for which each `everyNth` row of `table` (by its bigint `id`)
 * costs the source `sleepSeconds` (a row-level security policy calls a function that sleeps): a read
 * then takes seconds on any machine, however fast, so its progress can be seen; every row is still
 * returned. Gives the role's name; `drop` removes what it made.
 */
export async function throttledReader(
  source: SourceDatabase,
  table: string,
  everyNth: number,
  sleepSeconds: number,
): Promise<{ role: string; drop(): Promise<void> }> {
  const role = `slow_reader_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  await source.sql.unsafe(`CREATE ROLE ${role} LOGIN`);
  await source.sql.unsafe(`GRANT USAGE ON SCHEMA public TO ${role}`);
  await source.sql.unsafe(`GRANT SELECT ON ${table} TO ${role}`);
  await source.sql.unsafe(`CREATE FUNCTION throttled_${role}(id bigint) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
    BEGIN
      IF id % ${everyNth} = 0 THEN PERFORM pg_sleep(${sleepSeconds}); END IF;
      RETURN true;
    END $$`);
  await source.sql.unsafe(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`);
  await source.sql.unsafe(`CREATE POLICY throttled_reads ON ${table} FOR SELECT TO ${role} USING (throttled_${role}(id))`);
  return {
    role,
    async drop() {
      await source.sql.unsafe(`DROP OWNED BY ${role}`);
      await source.sql.unsafe(`DROP ROLE ${role}`);
    },
  };
}
