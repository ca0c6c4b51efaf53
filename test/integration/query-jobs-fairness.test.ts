import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../support/backends';
import { startTestApp, type TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import { createVerifiedUser, type TestUser } from '../support/accounts';
import { createWorkspace } from '../support/workspaces';
import { jobStatus, slowSql, submitJobOk, useJobsPlan, waitForJob } from '../support/jobs';
import { eventually } from '../support/eventually';
import { withWorkspace } from '../support/fixtures';

/** Jobs of a workspace, as the list endpoint gives them. */
async function jobsOf(t: TestApp, user: TestUser, workspaceId: string, query = ''): Promise<{ jobs: any[]; total: number }> {
  const response = await t.request(`/api/v1/query/jobs?workspace_id=${workspaceId}${query}`, { token: user.accessToken });
  expect(response.status).toBe(200);
  return { jobs: await bodyOf(response), total: Number(response.headers.get('x-total-count')) };
}

async function cancelAll(t: TestApp, user: TestUser, jobIds: string[]): Promise<void> {
  for (const jobId of jobIds) await t.request(`/api/v1/query/jobs/${jobId}/cancel`, { method: 'POST', token: user.accessToken });
}

for (const backend of backends) {
  describe(`fair share of the job capacity (${backend})`, () => {
    let t: TestApp;

    // The default capacity (QUERY_JOB_CONCURRENCY 6) is larger than any one plan's share (Business 4).
    beforeAll(async () => {
      t = await startTestApp(backend, { worker: true });
    });
    afterAll(() => t.stop());

    test('tenant A keeps ten long priority-10 jobs queued and running; tenant B’s trivial priority-1 job succeeds within 5 s', async () => {
      const { user: a, workspaceId: workspaceA } = await withWorkspace(t, { label: 'tenant-a' });
      const { user: b, workspaceId: workspaceB } = await withWorkspace(t, { label: 'tenant-b' });
      await useJobsPlan(t, workspaceA, 4);
      const backlog: string[] = [];
      for (let i = 0; i < 10; i++) backlog.push(await submitJobOk(t, a, { sql: slowSql(3_000 + i), workspace_id: workspaceA, priority: 10 }));
      try {
        // A holds its four slots, its six other jobs wait for them, and none of them runs elsewhere.
        const running = await eventually(
          () => jobsOf(t, a, workspaceA, '&status=running'),
          ({ jobs }) => jobs.length === 4,
          30_000,
        );
        expect(running.total).toBe(4);
        expect((await jobsOf(t, a, workspaceA, '&status=pending')).total).toBe(6);

        const startedAt = performance.now();
        const trivial = await submitJobOk(t, b, { sql: 'SELECT 42 AS answer', workspace_id: workspaceB, priority: 1 });
        const done = await waitForJob(t, b, trivial, ['succeeded', 'failed', 'cancelled'], 5_000, '?limit=1');
        const waitedMs = performance.now() - startedAt;
        expect(done).toMatchObject({ status: 'succeeded', progress: 1, result: { rows: [[42]] } });
        expect(waitedMs).toBeLessThan(5_000);

        // A's backlog was still there the whole time: it kept its share, no more.
        const after = await jobsOf(t, a, workspaceA);
        expect(after.jobs.filter((job) => job.status === 'running')).toHaveLength(4);
        expect(after.jobs.filter((job) => job.status === 'pending')).toHaveLength(6);
      } finally {
        await cancelAll(t, a, backlog);
      }
    }, 120_000);

    test('a slot that frees goes to the workspace’s highest-priority waiting job, and the next workspace’s job never waits for it', async () => {
      const { user, workspaceId } = await withWorkspace(t, { label: 'order' });
      await useJobsPlan(t, workspaceId, 1);
      const blocker = await submitJobOk(t, user, { sql: slowSql(400), workspace_id: workspaceId, priority: 1 });
      await waitForJob(t, user, blocker, ['running'], 30_000);
      const low = await submitJobOk(t, user, { sql: 'SELECT 1 AS low', workspace_id: workspaceId, priority: 2 });
      const high = await submitJobOk(t, user, { sql: 'SELECT 1 AS high', workspace_id: workspaceId, priority: 9 });
      const middle = await submitJobOk(t, user, { sql: 'SELECT 1 AS middle', workspace_id: workspaceId, priority: 5 });
      // Waiting for the slot: pending, progress 0, their workflows say they are not admitted.
      expect(await jobStatus(t, user, high)).toMatchObject({ status: 'pending', progress: 0, started_at: null });
      await t.request(`/api/v1/query/jobs/${blocker}/cancel`, { method: 'POST', token: user.accessToken });
      const ended = await Promise.all([high, middle, low].map((id) => waitForJob(t, user, id, ['succeeded'], 30_000)));
      const starts = ended.map((job) => Date.parse(job.started_at));
      expect(starts[0]!).toBeLessThanOrEqual(starts[1]!);
      expect(starts[1]!).toBeLessThanOrEqual(starts[2]!);
      // One at a time: each started after the one before it had finished.
      expect(Date.parse(ended[1].started_at)).toBeGreaterThanOrEqual(Date.parse(ended[0].finished_at));
      expect(Date.parse(ended[2].started_at)).toBeGreaterThanOrEqual(Date.parse(ended[1].finished_at));
    }, 120_000);

    test('the list: most recent first, filtered by status, paged, with X-Total-Count; the dashboard shows the plan’s share', async () => {
      const { user, workspaceId } = await withWorkspace(t, { label: 'list' });
      await useJobsPlan(t, workspaceId, 2);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push(await submitJobOk(t, user, { sql: `SELECT ${i} AS i`, workspace_id: workspaceId }));
      const failing = await submitJobOk(t, user, { sql: 'SELECT nope FROM range(1)', workspace_id: workspaceId });
      for (const id of [...ids, failing]) await waitForJob(t, user, id);
      const all = await jobsOf(t, user, workspaceId);
      expect(all.total).toBe(4);
      expect(all.jobs.map((job) => job.job_id)).toEqual([failing, ids[2], ids[1], ids[0]]);
      expect(all.jobs[0]).toMatchObject({ job_id: failing, status: 'failed', error: { code: 'UNDEFINED_COLUMN' }, result: null, progress: null });
      const succeeded = all.jobs.find((job) => job.job_id === ids[0]);
      expect(succeeded).toMatchObject({
        status: 'succeeded',
        progress: 1,
        result: { row_count: 1, columns: [{ name: 'i', type: 'INTEGER' }], expired: false },
      });
      expect(succeeded.result.rows).toBeUndefined();
      expect((await jobsOf(t, user, workspaceId, '&status=failed')).jobs.map((job) => job.job_id)).toEqual([failing]);
      const page = await jobsOf(t, user, workspaceId, '&limit=2&offset=1');
      expect(page).toMatchObject({ total: 4 });
      expect(page.jobs.map((job) => job.job_id)).toEqual(all.jobs.slice(1, 3).map((job) => job.job_id));
      expect((await t.request(`/api/v1/query/jobs?workspace_id=${workspaceId}&status=done`, { token: user.accessToken })).status).toBe(422);
      const stranger = await createVerifiedUser(t, 'list-stranger');
      expect((await t.request(`/api/v1/query/jobs?workspace_id=${workspaceId}`, { token: stranger.accessToken })).status).toBe(403);

      const dashboard = await bodyOf(await t.request(`/api/v1/workspaces/${workspaceId}/usage/dashboard`, { token: user.accessToken }));
      expect(dashboard).toMatchObject({ max_running_jobs: 2 });
      const free = (await createWorkspace(t, user, 'free')).id;
      expect(await bodyOf(await t.request(`/api/v1/workspaces/${free}/usage/dashboard`, { token: user.accessToken }))).toMatchObject({
        plan_tier: 'free',
        max_running_jobs: 1,
        query_history_days: 7,
      });
    }, 120_000);
  });
}
