import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import { createVerifiedUser, type TestUser } from '../support/accounts';
import { addMember, createWorkspace } from '../support/workspaces';
import { jobStatus, slowSql, submitJob, submitJobOk, useJobsPlan, waitForJob } from '../support/jobs';
import { namedQuery } from '../../src/store/named-query';
import type { jobResultsCleanupWorkflow } from '../../src/workflows/job-results-cleanup';
import { queryJobStatusQuery } from '../../src/workflows/query-job';
import { eventually } from '../support/eventually';
import { withWorkspace } from '../support/fixtures';

const usageOfJob = namedQuery<{ job_id: string }, { n: number }>('test.job_usage', 'SELECT count(*) AS n FROM query_usage WHERE job_id = :job_id');

describe('query jobs on Temporal', () => {
  let t: TestApp, user: TestUser, workspaceId: string;

  beforeAll(async () => {
    // One query slot: the order in which queued jobs run is then exactly their priority order.
    ({ t, user, workspaceId } = await withWorkspace('local', { worker: true, env: { QUERY_JOB_CONCURRENCY: '1' }, label: 'jobs', plan: 'business' }));
  });
  afterAll(() => t.stop());

  test('a job goes from pending to succeeded and pages through its 10,000 rows', async () => {
    const response = await submitJob(t, user, { sql: 'SELECT range AS n, range * 2 AS twice FROM range(10000)', workspace_id: workspaceId, priority: 7 });
    expect(response.status).toBe(200);
    const submitted = await bodyOf(response);
    expect(submitted).toEqual({ job_id: expect.any(String), status: 'pending', priority: 7, submitted_at: expect.any(String) });
    const done = await waitForJob(t, user, submitted.job_id, ['succeeded'], 60_000, '?offset=9990&limit=100');
    expect(done).toMatchObject({ status: 'succeeded', priority: 7, started_at: expect.any(String), finished_at: expect.any(String), error: null, progress: 1 });
    expect(done.result).toMatchObject({
      columns: [
        { name: 'n', type: 'BIGINT' },
        { name: 'twice', type: 'BIGINT' },
      ],
      row_count: 10_000,
      offset: 9990,
      limit: 100,
      expired: false,
      cpu_ms: expect.any(Number),
      cost_eur: expect.any(Number),
    });
    expect(done.result.rows).toEqual(Array.from({ length: 10 }, (_, i) => [9990 + i, (9990 + i) * 2]));
    const firstPage = await jobStatus(t, user, submitted.job_id, '?limit=3');
    expect(firstPage.result.rows).toEqual([
      [0, 0],
      [1, 2],
      [2, 4],
    ]);
    const all = await jobStatus(t, user, submitted.job_id, '?limit=10000');
    expect(all.result.rows).toHaveLength(10_000);
    expect((await t.infra.store.first(usageOfJob, { job_id: submitted.job_id }))?.n).toBe(1);
  }, 60_000);

  test('result pages come in the format the job was submitted with, or the one a page asks for', async () => {
    const sql = `SELECT n, 'say "hi", ' || n AS greeting FROM (VALUES (1), (2)) t(n) ORDER BY n`;
    const jobId = await submitJobOk(t, user, { sql, workspace_id: workspaceId, format: 'objects' });
    const done = await waitForJob(t, user, jobId);
    expect(done.result.data).toEqual([
      { n: 1, greeting: 'say "hi", 1' },
      { n: 2, greeting: 'say "hi", 2' },
    ]);
    expect(done.result.rows).toBeUndefined();
    const csv = await jobStatus(t, user, jobId, '?format=csv&limit=1');
    expect(csv.result.csv).toBe('n,greeting\r\n1,"say ""hi"", 1"\r\n');
    const arrays = await jobStatus(t, user, jobId, '?format=json&offset=1');
    expect(arrays.result.rows).toEqual([[2, 'say "hi", 2']]);
  }, 60_000);

  test('a failing query fails the job with the SQL surface’s code', async () => {
    const jobId = await submitJobOk(t, user, { sql: 'SELECT nope FROM range(3)', workspace_id: workspaceId });
    const done = await waitForJob(t, user, jobId);
    expect(done).toMatchObject({ status: 'failed', result: null, error: { code: 'UNDEFINED_COLUMN', message: expect.any(String) } });
  }, 60_000);

  test('priority: with one running slot, a priority-10 job submitted after ten priority-1 jobs runs next', async () => {
    const workspaceId = (await createWorkspace(t, user, 'priority')).id;
    await useJobsPlan(t, workspaceId, 1);
    const blocker = await submitJobOk(t, user, { sql: slowSql(150), workspace_id: workspaceId, priority: 5 });
    await waitForJob(t, user, blocker, ['running']);
    const low: string[] = [];
    for (let i = 0; i < 10; i++) low.push(await submitJobOk(t, user, { sql: `SELECT ${i} AS i`, workspace_id: workspaceId, priority: 1 }));
    const high = await submitJobOk(t, user, { sql: 'SELECT 10 AS i', workspace_id: workspaceId, priority: 10 });
    const highDone = await waitForJob(t, user, high);
    const lowDone = await Promise.all(low.map((id) => waitForJob(t, user, id)));
    for (const job of lowDone) expect(job.started_at > highDone.started_at).toBe(true);
    // The low ones ran in their submission order among themselves (same priority).
    expect(lowDone.map((job) => job.status)).toEqual(Array(10).fill('succeeded'));
  }, 120_000);

  test('cancel: a pending job is cancelled and never runs; a running or finished one is 409 JOB_NOT_PENDING', async () => {
    const running = await submitJobOk(t, user, { sql: slowSql(150), workspace_id: workspaceId });
    const seenRunning = await waitForJob(t, user, running, ['running']);
    // The record answers the API (progress from the activity's heartbeat); the workflow answers operators.
    expect(seenRunning).toMatchObject({ status: 'running', started_at: expect.any(String), progress: expect.any(Number) });
    const workflowSays = await eventually(
      () => t.infra.temporal.client.workflow.getHandle(running).query(queryJobStatusQuery),
      (state) => state.status === 'running',
      10_000,
    );
    expect(workflowSays).toEqual({ status: 'running', startedAt: seenRunning.started_at, admitted: true });
    const pending = await submitJobOk(t, user, { sql: 'SELECT 1 AS one', workspace_id: workspaceId });
    const cancelled = await t.request(`/api/v1/query/jobs/${pending}`, { method: 'DELETE', token: user.accessToken });
    expect(cancelled.status).toBe(200);
    expect(await bodyOf(cancelled)).toEqual({ job_id: pending, status: 'cancelled' });
    const runningCancel = await t.request(`/api/v1/query/jobs/${running}`, { method: 'DELETE', token: user.accessToken });
    expect(runningCancel.status).toBe(409);
    expect((await bodyOf(runningCancel)).detail.error.code).toBe('JOB_NOT_PENDING');
    await waitForJob(t, user, running);
    await Bun.sleep(1_000);
    const never = await jobStatus(t, user, pending);
    expect(never).toMatchObject({ status: 'cancelled', started_at: null, result: null });
    expect((await t.infra.store.first(usageOfJob, { job_id: pending }))?.n).toBe(0);
    expect((await t.request(`/api/v1/query/jobs/${running}`, { method: 'DELETE', token: user.accessToken })).status).toBe(409);
    expect((await t.infra.temporal.client.workflow.getHandle(pending).describe()).status.name).toBe('CANCELLED');
  }, 60_000);

  test('unknown jobs are 404; so are other workspaces’ jobs, to anyone outside them', async () => {
    expect((await t.request(`/api/v1/query/jobs/${crypto.randomUUID()}`, { token: user.accessToken })).status).toBe(404);
    const jobId = await submitJobOk(t, user, { sql: 'SELECT 1', workspace_id: workspaceId });
    const stranger = await createVerifiedUser(t, 'stranger');
    expect((await t.request(`/api/v1/query/jobs/${jobId}`, { token: stranger.accessToken })).status).toBe(404);
    expect((await t.request(`/api/v1/query/jobs/${jobId}`, { method: 'DELETE', token: stranger.accessToken })).status).toBe(404);
    const viewer = await createVerifiedUser(t, 'viewer');
    await addMember(t, workspaceId, user, viewer, 'VIEWER');
    expect((await t.request(`/api/v1/query/jobs/${jobId}`, { token: viewer.accessToken })).status).toBe(200);
    expect((await t.request('/api/v1/query/jobs/not-a-uuid', { token: user.accessToken })).status).toBe(422);
  }, 60_000);

  test('an Idempotency-Key makes a resubmission return the same job', async () => {
    const key = { 'idempotency-key': `job-${crypto.randomUUID()}` };
    const body = { sql: 'SELECT 42 AS answer', workspace_id: workspaceId };
    const first = await bodyOf(await submitJob(t, user, body, key));
    const second = await bodyOf(await submitJob(t, user, body, key));
    expect(second.job_id).toBe(first.job_id);
    expect((await submitJob(t, user, { ...body, sql: 'SELECT 43' }, key)).status).toBe(409);
    await waitForJob(t, user, first.job_id);
    expect((await t.infra.store.first(usageOfJob, { job_id: first.job_id }))?.n).toBe(1);
  }, 60_000);

  test('422 for a bad submission', async () => {
    expect((await submitJob(t, user, { sql: 'SELECT 1', workspace_id: workspaceId, priority: 11 })).status).toBe(422);
    expect((await submitJob(t, user, { sql: 'SELECT 1', workspace_id: workspaceId, priority: 0 })).status).toBe(422);
    expect((await submitJob(t, user, { sql: '', workspace_id: workspaceId })).status).toBe(422);
    expect((await submitJob(t, user, { sql: 'SELECT 1' })).status).toBe(422);
  });
});

describe('query job results', () => {
  test('a result past its retention says so, and the cleanup schedule removes its file', async () => {
    // Its own service: moving the clock a week on would expire every other test's tokens.
    const t = await startTestApp('local', { worker: true });
    try {
      const { user, workspaceId } = await withWorkspace(t, { label: 'retention' });
      const jobId = await submitJobOk(t, user, { sql: 'SELECT 1 AS one', workspace_id: workspaceId });
      await waitForJob(t, user, jobId);
      t.clock.advance(7 * 24 * 3_600_000 + 1_000);
      const login = await bodyOf(await t.request('/api/v1/auth/login', { method: 'POST', json: { email: user.email, password: user.password } }));
      const expired = await jobStatus(t, { ...user, accessToken: login.access_token }, jobId);
      expect(expired.result).toMatchObject({ expired: true, rows: null, row_count: 1 });
      const removed = await t.infra.temporal.client.workflow.execute<typeof jobResultsCleanupWorkflow>('jobResultsCleanupWorkflow', {
        workflowId: `cleanup-test-${crypto.randomUUID()}`,
        taskQueue: t.infra.temporal.taskQueue,
      });
      expect(removed).toBeGreaterThanOrEqual(1);
      expect(await t.infra.lake.list(`${workspaceId}/__results/`)).not.toContain(`${workspaceId}/__results/${jobId}.parquet`);
    } finally {
      await t.stop();
    }
  }, 60_000);
});

describe('query jobs and the rate limit', () => {
  test('submission counts against the workspace’s limit: the 11th job of a Free workspace in a minute is refused', async () => {
    const t = await startTestApp('local');
    try {
      const { user, workspaceId } = await withWorkspace(t, { label: 'limited' });
      for (let i = 0; i < 10; i++) expect((await submitJob(t, user, { sql: `SELECT ${i}`, workspace_id: workspaceId })).status).toBe(200);
      const refused = await submitJob(t, user, { sql: 'SELECT 11', workspace_id: workspaceId });
      expect(refused.status).toBe(429);
      expect((await bodyOf(refused)).detail.error.code).toBe('RATE_LIMITED');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await t.stop();
    }
  }, 60_000);
});
