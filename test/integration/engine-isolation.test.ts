// npm test: alone, it saturates the engine on purpose and bounds another tenant's latency in wall-clock time.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import { tokenFromMail, uniqueEmail, type TestUser } from '../support/accounts';
import { uniqueSlug } from '../support/workspaces';
import { jobStatus, submitJob, waitForJob } from '../support/jobs';
import { withWorkspace } from '../support/fixtures';

/** Runs for minutes unless stopped: a cross join of two hundred-million-row series. */
const runaway = 'SELECT sum(a.x * b.x) FROM generate_series(1, 100000000) a(x) CROSS JOIN generate_series(1, 100000000) b(x)';
const queryTimeoutMs = 6_000;
/**
 * The Free plan runs one job at a time: A's first job holds the engine for this long, longer than B's steps
 * take; the file runs alone, so no longer than it must.
 */
const jobTimeoutMs = 8_000;
/** What another tenant may wait for any single step while the engine is saturated. */
const bound = 2_000;

describe('heavy engine work of one workspace never starves another', () => {
  let t: TestApp, a: TestUser, workspaceA: string;

  beforeAll(
    async () =>
      ({
        t,
        user: a,
        workspaceId: workspaceA,
      } = await withWorkspace('local', {
        worker: true,
        env: { QUERY_TIMEOUT_MS: String(queryTimeoutMs), QUERY_JOB_TIMEOUT: `${jobTimeoutMs / 1000}s` },
        label: 'saturating',
      })),
  );
  afterAll(() => t.stop());

  test('while A runs ten long statements, B signs up, logs in, creates a workspace, pushes and queries within the bound', async () => {
    // A, on the Free plan, uses its whole minute: five jobs and five interactive queries, all runaways.
    const jobs = await Promise.all(Array.from({ length: 5 }, () => submitJob(t, a, { sql: runaway, workspace_id: workspaceA })));
    const jobIds = await Promise.all(jobs.map(async (response) => (expect(response.status).toBe(200), (await bodyOf(response)).job_id as string)));
    const interactiveStartedAt = performance.now();
    const interactive = Array.from({ length: 5 }, () =>
      t.request('/api/v1/query', { method: 'POST', json: { sql: runaway, workspace_id: workspaceA }, token: a.accessToken }).then(async (response) => ({
        status: response.status,
        body: await bodyOf(response),
        elapsedMs: performance.now() - interactiveStartedAt,
      })),
    );
    await Bun.sleep(1_000); // every statement of A is running or queued by now

    const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
      const startedAt = performance.now();
      let timer: Timer | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${name} took longer than ${bound} ms`)), bound);
      });
      try {
        return await Promise.race([work(), late]);
      } finally {
        clearTimeout(timer);
        console.log(`  ${name}: ${(performance.now() - startedAt).toFixed(0)} ms`);
      }
    };

    const email = uniqueEmail('neighbour');
    const password = 'correct horse battery';
    await step('sign-up', async () => expect((await t.request('/api/v1/auth/signup', { method: 'POST', json: { email, password } })).status).toBe(201));
    const verification = await tokenFromMail(t, email);
    await step('verify', async () =>
      expect((await t.request('/api/v1/auth/verify-email', { method: 'POST', json: { token: verification } })).status).toBe(200),
    );
    const token = await step('login', async () => {
      const response = await t.request('/api/v1/auth/login', { method: 'POST', json: { email, password } });
      expect(response.status).toBe(200);
      return (await bodyOf(response)).access_token as string;
    });
    const workspaceB = await step('create workspace', async () => {
      const slug = uniqueSlug('neighbour');
      const response = await t.request('/api/v1/workspaces', { method: 'POST', json: { name: slug, slug }, token });
      expect(response.status).toBe(201);
      return (await bodyOf(response)).id as string;
    });
    const records = Array.from({ length: 1_000 }, (_, i) => ({ id: i, amount: i % 10, region: i % 2 ? 'east' : 'west' }));
    await step('push 1,000 rows', async () => {
      const response = await t.request(`/api/v1/workspaces/${workspaceB}/push`, { method: 'POST', json: { table: 'sales.orders', records }, token });
      expect(response.status).toBe(200);
    });
    await step('SELECT 1', async () => {
      const response = await t.request('/api/v1/query', { method: 'POST', json: { sql: 'SELECT 1 AS one', workspace_id: workspaceB }, token });
      expect(response.status).toBe(200);
      expect((await bodyOf(response)).rows).toEqual([[1]]);
    });
    await step('small aggregate', async () => {
      const response = await t.request('/api/v1/query', {
        method: 'POST',
        json: { sql: 'SELECT region, sum(amount) AS total FROM sales.orders GROUP BY region ORDER BY region', workspace_id: workspaceB, format: 'objects' },
        token,
      });
      expect(response.status).toBe(200);
      expect((await bodyOf(response)).data).toEqual([
        { region: 'east', total: 2500 },
        { region: 'west', total: 2000 },
      ]);
    });
    await step('health', async () => {
      const response = await t.request('/health');
      expect(response.status).toBe(200);
    });
    await step('job status poll', async () => expect((await t.request(`/api/v1/query/jobs/${jobIds[0]}`, { token: a.accessToken })).status).toBe(200));

    // A's own statements end as they always did: each interactive one at its timeout (or refused at once
    // when over the workspace's concurrency), the running job at the job timeout. The four jobs queued
    // behind it are cancelled rather than left to hold the engine for four more timeouts each.
    const queued: string[] = [];
    for (const jobId of jobIds) {
      if ((await jobStatus(t, a, jobId)).status !== 'pending') continue;
      const response = await t.request(`/api/v1/query/jobs/${jobId}/cancel`, { method: 'POST', token: a.accessToken });
      expect([200, 409]).toContain(response.status);
      queued.push(jobId);
    }
    expect(queued.length).toBeGreaterThanOrEqual(3);
    for (const outcome of await Promise.all(interactive)) {
      if (outcome.status === 408) {
        expect(outcome.body.detail.error.code).toBe('QUERY_TIMEOUT');
        expect(outcome.elapsedMs).toBeLessThan(queryTimeoutMs * 2 + 2_000);
      } else {
        expect(outcome.status).toBe(429);
      }
    }
    // The job that was running ends at the job timeout; one queued may have started before its cancel came.
    const outcomes = await Promise.all(jobIds.map((jobId) => waitForJob(t, a, jobId, ['failed', 'cancelled'], jobTimeoutMs * 3)));
    for (const done of outcomes) if (done.status === 'failed') expect(done.error.code).toBe('QUERY_TIMEOUT');
    expect(outcomes.filter((done) => done.status === 'failed').length).toBeGreaterThanOrEqual(1);
  }, 180_000);
});
