import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../support/test-app';
import type { TestUser } from '../support/accounts';
import { jobStatus, slowSql, submitJobOk, waitForJob } from '../support/jobs';
import { serviceEnvOf } from '../support/service-env';
import { WorkerProcesses } from '../support/service-process';
import { namedQuery } from '../../src/store/named-query';
import { withWorkspace } from '../support/fixtures';
import { eventually } from '../support/eventually';

const jobRecord = namedQuery<{ id: string }, { attempts: number; status: string; usage: number }>(
  'test.job_record',
  'SELECT attempts, status, (SELECT count(*) FROM query_usage WHERE job_id = :id) AS usage FROM query_jobs WHERE id = :id',
);

describe('a query job survives its worker being killed', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  const workers = new WorkerProcesses(() => ({ ...serviceEnvOf(t), LOG_LEVEL: 'warn' }));

  beforeAll(async () => {
    // The API in this process, the worker in another: as deployed, so the worker can die on its own.
    ({ t, user, workspaceId } = await withWorkspace('local', { label: 'restart' }));
  });
  // Each test starts the workers it needs; none may outlive it and pick up the next test's jobs.
  afterEach(() => workers.killAll());
  afterAll(() => t.stop());

  test('kill -9 during a running job: a new worker completes it once', async () => {
    const first = await workers.start();
    // Long enough (seconds here) that the kill, half a second after the job runs, lands well inside the query.
    const jobId = await submitJobOk(t, user, { sql: slowSql(300), workspace_id: workspaceId });
    await waitForJob(t, user, jobId, ['running'], 60_000);
    await Bun.sleep(500);
    await workers.kill(first);
    expect((await jobStatus(t, user, jobId)).status).toBe('running');

    await workers.start();
    const done = await waitForJob(t, user, jobId, ['succeeded', 'failed'], 120_000);
    expect(done.status).toBe('succeeded');
    expect(done.result.row_count).toBe(1);
    const record = await t.infra.store.first(jobRecord, { id: jobId });
    expect(record).toEqual({ attempts: 2, status: 'succeeded', usage: 1 });
  }, 180_000);

  test('pending jobs stay pending while no worker runs, and run once one is back', async () => {
    const jobId = await submitJobOk(t, user, { sql: 'SELECT 7 AS seven', workspace_id: workspaceId });
    await t.restart();
    await Bun.sleep(1_500);
    expect((await jobStatus(t, user, jobId)).status).toBe('pending');
    await workers.start();
    const done = await waitForJob(t, user, jobId, ['succeeded'], 60_000);
    expect(done.result.rows).toEqual([[7]]);
  }, 120_000);

  test('SIGTERM during a running job: no new task is taken, the running query finishes within the grace, then the process exits 0', async () => {
    const worker = await workers.start({ SHUTDOWN_GRACE: '120s', LOG_LEVEL: 'info' });
    const running = await submitJobOk(t, user, { sql: slowSql(600), workspace_id: workspaceId });
    await waitForJob(t, user, running, ['running'], 60_000);
    worker.child.kill('SIGTERM');
    // Once it says so, it has stopped polling; a loaded machine may take a while to let it say so.
    expect(
      await eventually(
        () => worker.output(),
        (output) => output.includes('"shutting down"'),
        30_000,
      ),
    ).toContain('"shutting down"');
    await Bun.sleep(1_000);
    // Submitted after the signal: the stopping worker no longer polls, so it waits for the next one.
    const later = await submitJobOk(t, user, { sql: 'SELECT 8 AS eight', workspace_id: workspaceId });

    expect(await worker.child.exited).toBe(0);
    const done = await jobStatus(t, user, running);
    expect(done.status).toBe('succeeded');
    expect(await t.infra.store.first(jobRecord, { id: running })).toEqual({ attempts: 1, status: 'succeeded', usage: 1 });
    expect((await jobStatus(t, user, later)).status).toBe('pending');

    await workers.start();
    expect((await waitForJob(t, user, later, ['succeeded'], 60_000)).result.rows).toEqual([[8]]);
  }, 180_000);
});
