import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { WorkflowFailedError } from '@temporalio/client';
import { backends } from '../support/backends';
import { type TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import { createVerifiedUser, type TestUser } from '../support/accounts';
import { createWorkspace } from '../support/workspaces';
import { jobStatus, slowSql, submitJobOk, useJobsPlan, waitForJob } from '../support/jobs';
import { eventually } from '../support/eventually';
import { namedQuery } from '../../src/store/named-query';
import { cancelOpenJob, findJob, insertJob, type JobRow } from '../../src/jobs/job-queries';
import type { queryJobReconciliationWorkflow } from '../../src/workflows/job-reconciliation';
import { searchAttributes } from '../../src/temporal/search-attributes';
import { withWorkspace } from '../support/fixtures';

const usageOfJob = namedQuery<{ job_id: string }, { status: string; duration_ms: number | string; cpu_ms: number | string; error_code: string | null }>(
  'test.stopped_job_usage',
  'SELECT status, duration_ms, cpu_ms, error_code FROM query_usage WHERE job_id = :job_id',
);
const historyOfJob = namedQuery<
  { id: string },
  { status: string; kind: string; job_id: string | null; duration_ms: number | string; error_code: string | null }
>('test.stopped_job_history', 'SELECT status, kind, job_id, duration_ms, error_code FROM query_history WHERE id = :id');

for (const backend of backends) {
  describe(`stopping a job, and one truth for its state (${backend})`, () => {
    let t: TestApp;
    let user: TestUser;
    let workspaceId: string;

    /** The job's record as stored: read without the API, whose status reads repair records themselves. */
    const record = async (jobId: string): Promise<JobRow> => (await t.infra.store.first(findJob, { id: jobId }))!;
    const recordWithin = (jobId: string, accept: (job: JobRow) => boolean, ms = 5_000) => eventually(() => record(jobId), accept, ms);
    const handle = (jobId: string) => t.infra.temporal.client.workflow.getHandle(jobId);
    const statusAttribute = async (jobId: string) => (await handle(jobId).describe()).typedSearchAttributes.get(searchAttributes.status);
    const runningFor = async (sql: string, ms = 1_000) => {
      const jobId = await submitJobOk(t, user, { sql, workspace_id: workspaceId });
      await recordWithin(jobId, (job) => job.status === 'running', 30_000);
      await Bun.sleep(ms);
      return jobId;
    };

    /** A workspace of its own whose one running slot a long job holds. */
    const busySingleSlot = async (label: string) => {
      const single = (await createWorkspace(t, user, label)).id;
      await useJobsPlan(t, single, 1);
      const blocker = await submitJobOk(t, user, { sql: slowSql(20_000), workspace_id: single });
      await recordWithin(blocker, (job) => job.status === 'running', 30_000);
      return { single, blocker };
    };

    beforeAll(async () => {
      ({ t, user, workspaceId } = await withWorkspace(backend, { worker: true, label: 'stop' }));
      await useJobsPlan(t, workspaceId, 4);
    });
    afterAll(() => t.stop());

    test('POST /cancel interrupts a running job within a second: it ends cancelled, billed for what ran', async () => {
      const jobId = await runningFor(slowSql(20_000), 1_500);
      const cancelledAt = t.clock.now().getTime();
      const response = await t.request(`/api/v1/query/jobs/${jobId}/cancel`, { method: 'POST', token: user.accessToken });
      expect(response.status).toBe(200);
      expect(await bodyOf(response)).toEqual({ job_id: jobId, status: 'cancelled' });
      expect((await record(jobId)).status).toBe('cancelled');

      const usage = await eventually(
        () => t.infra.store.first(usageOfJob, { job_id: jobId }),
        (row) => row !== undefined,
        5_000,
      );
      expect(usage).toMatchObject({ status: 'cancelled', error_code: null });
      // The statement ran from its start until the interrupt, which came within a second of the cancel.
      const started = Date.parse((await record(jobId)).started_at!);
      expect(Number(usage!.duration_ms)).toBeGreaterThan(1_000);
      expect(started + Number(usage!.duration_ms)).toBeLessThan(cancelledAt + 1_000);
      expect(await t.infra.store.first(historyOfJob, { id: jobId })).toMatchObject({ status: 'cancelled', kind: 'job', job_id: jobId });

      await eventually(
        () => handle(jobId).describe(),
        (description) => description.status.name === 'CANCELLED',
        5_000,
      );
      expect(await statusAttribute(jobId)).toBe('cancelled');
      expect(await jobStatus(t, user, jobId)).toMatchObject({ status: 'cancelled', progress: null, result: null });
      const again = await t.request(`/api/v1/query/jobs/${jobId}/cancel`, { method: 'POST', token: user.accessToken });
      expect(again.status).toBe(409);
      expect((await bodyOf(again)).detail.error.code).toBe('JOB_FINISHED');
      expect((await t.request(`/api/v1/query/jobs/${jobId}`, { method: 'DELETE', token: user.accessToken })).status).toBe(409);
    }, 90_000);

    test('only whoever submitted a job, or an owner or admin, may cancel it; others do not learn of it', async () => {
      const jobId = await submitJobOk(t, user, { sql: 'SELECT 1 AS one', workspace_id: workspaceId });
      const stranger = await createVerifiedUser(t, 'stop-stranger');
      expect((await t.request(`/api/v1/query/jobs/${jobId}/cancel`, { method: 'POST', token: stranger.accessToken })).status).toBe(404);
      expect((await t.request(`/api/v1/query/jobs/${crypto.randomUUID()}/cancel`, { method: 'POST', token: user.accessToken })).status).toBe(404);
      expect((await t.request('/api/v1/query/jobs/not-a-uuid/cancel', { method: 'POST', token: user.accessToken })).status).toBe(422);
      await waitForJob(t, user, jobId);
    }, 60_000);

    test('cancelled from Temporal, as its UI does: the record says cancelled within 5 s and the query is billed for what ran', async () => {
      const jobId = await runningFor(slowSql(20_000));
      await handle(jobId).cancel();
      expect(await recordWithin(jobId, (job) => job.status === 'cancelled')).toMatchObject({ status: 'cancelled' });
      expect(
        await eventually(
          () => t.infra.store.first(usageOfJob, { job_id: jobId }),
          (row) => row !== undefined,
          5_000,
        ),
      ).toMatchObject({ status: 'cancelled' });
      await eventually(
        () => handle(jobId).describe(),
        (description) => description.status.name === 'CANCELLED',
        5_000,
      );
    }, 90_000);

    test('terminated from Temporal: the record says failed within 5 s, and the slot passes to the next job', async () => {
      const { single, blocker: jobId } = await busySingleSlot('terminate');
      const next = await submitJobOk(t, user, { sql: 'SELECT 2 AS next', workspace_id: single });
      expect((await record(next)).admitted_at).toBeNull();
      await Bun.sleep(500);
      await handle(jobId).terminate('operator test');
      const failed = await recordWithin(jobId, (job) => job.status === 'failed');
      expect(failed).toMatchObject({ status: 'failed', error_code: 'JOB_TERMINATED' });
      // Its history entry, written `running` when its query started, ends with it.
      expect(await t.infra.store.first(historyOfJob, { id: jobId })).toMatchObject({ status: 'failed', error_code: 'JOB_TERMINATED', kind: 'job' });
      expect(await waitForJob(t, user, next, ['succeeded'], 15_000)).toMatchObject({ status: 'succeeded' });
    }, 90_000);

    test('a waiting job terminated in Temporal is repaired when its status is read, and by the reconciliation', async () => {
      const { single, blocker } = await busySingleSlot('waiting');
      const read = await submitJobOk(t, user, { sql: 'SELECT 1', workspace_id: single });
      const swept = await submitJobOk(t, user, { sql: 'SELECT 2', workspace_id: single });
      await Bun.sleep(2_500);
      await handle(read).terminate('operator test');
      await handle(swept).terminate('operator test');
      expect(await jobStatus(t, user, read)).toMatchObject({ status: 'failed', error: { code: 'JOB_TERMINATED' } });
      expect((await record(swept)).status).toBe('pending');
      const report = await t.infra.temporal.client.workflow.execute<typeof queryJobReconciliationWorkflow>('queryJobReconciliationWorkflow', {
        workflowId: `reconciliation-test-${crypto.randomUUID()}`,
        taskQueue: t.infra.temporal.taskQueue,
      });
      expect(report.repaired).toBeGreaterThanOrEqual(1);
      expect(await record(swept)).toMatchObject({ status: 'failed', error_code: 'JOB_TERMINATED' });
      await t.request(`/api/v1/query/jobs/${blocker}/cancel`, { method: 'POST', token: user.accessToken });
    }, 90_000);

    test('the reconciliation sends again a cancel that did not reach Temporal, and starts a job whose workflow never started', async () => {
      const reconcile = () =>
        t.infra.temporal.client.workflow.execute<typeof queryJobReconciliationWorkflow>('queryJobReconciliationWorkflow', {
          workflowId: `reconciliation-test-${crypto.randomUUID()}`,
          taskQueue: t.infra.temporal.taskQueue,
        });
      // The API recorded a cancel while Temporal was out of reach: the workflow still runs its query.
      const cancelled = await runningFor(slowSql(20_000));
      await t.infra.store.run(cancelOpenJob, { id: cancelled, now: t.clock.now().toISOString() });
      // Submitted, and its process died before it could start the workflow.
      const lost = Bun.randomUUIDv7();
      await t.infra.store.run(insertJob, {
        id: lost,
        workspace_id: workspaceId,
        user_id: user.userId,
        sql: 'SELECT 7 AS lost',
        priority: 5,
        force_scan: 0,
        result_format: 'json',
        idempotency_key: null,
        request_hash: 'test',
        now: t.clock.now().toISOString(),
      });
      t.clock.advance(61_000);
      try {
        // Visibility lists a running workflow a moment after it started.
        const report = await eventually(reconcile, (result) => result.cancelled >= 1, 10_000);
        expect(report.cancelled).toBeGreaterThanOrEqual(1);
      } finally {
        t.clock.advance(-61_000);
      }
      await eventually(
        () => handle(cancelled).describe(),
        (description) => description.status.name === 'CANCELLED',
        10_000,
      );
      expect(
        await eventually(
          () => t.infra.store.first(usageOfJob, { job_id: cancelled }),
          (row) => row !== undefined,
          5_000,
        ),
      ).toMatchObject({ status: 'cancelled' });
      expect(await waitForJob(t, user, lost, ['succeeded', 'failed'], 30_000)).toMatchObject({ status: 'succeeded', result: { rows: [[7]] } });
    }, 90_000);

    test('failed jobs fail their workflows with the error code: a visibility query finds them; OxbowStatus follows every job', async () => {
      const failing = await submitJobOk(t, user, { sql: 'SELECT nope FROM range(3)', workspace_id: workspaceId });
      const fine = await submitJobOk(t, user, { sql: 'SELECT 3 AS three', workspace_id: workspaceId });
      expect(await waitForJob(t, user, failing)).toMatchObject({ status: 'failed', error: { code: 'UNDEFINED_COLUMN' } });
      await waitForJob(t, user, fine);
      const failure = await handle(failing)
        .result()
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(WorkflowFailedError);
      expect((failure as WorkflowFailedError).cause).toMatchObject({ type: 'UNDEFINED_COLUMN' });

      const list = async (query: string) => {
        const ids: string[] = [];
        for await (const execution of t.infra.temporal.client.workflow.list({ query })) ids.push(execution.workflowId);
        return ids;
      };
      const ofWorkspace = `OxbowWorkspaceId = '${workspaceId}' AND OxbowKind = 'query_job'`;
      expect(
        await eventually(
          () => list(`${ofWorkspace} AND ExecutionStatus = 'Failed'`),
          (ids) => ids.includes(failing),
          10_000,
        ),
      ).toContain(failing);
      const failedIds = await eventually(
        () => list(`${ofWorkspace} AND OxbowStatus = 'failed'`),
        (ids) => ids.includes(failing),
        10_000,
      );
      expect(failedIds).toContain(failing);
      expect(failedIds).not.toContain(fine);
      // The job's record says succeeded before its workflow has set the attribute on its way out.
      expect(
        await eventually(
          () => statusAttribute(fine),
          (status) => status === 'succeeded',
          10_000,
        ),
      ).toBe('succeeded');
      // The error code reaches the log as it is: codes are not secrets.
      expect(t.logLines.some((line) => line.includes('"code":"UNDEFINED_COLUMN"'))).toBe(true);
      expect(t.logLines.some((line) => line.includes('"code":"[redacted]"'))).toBe(false);
    }, 60_000);

    // Progress is DuckDB's and the heartbeat's, the same on either store: shown on one, where it costs
    // seconds of both cores.
    if (backend === 'local')
      test('progress moves forward during a multi-second job, never back, and reaches 1 at its end', async () => {
        await t.services.engine.materializer.materialize(workspaceId, {
          sql: 'SELECT range AS x FROM range(20000000)',
          target: { schema: 'big', table: 'numbers' },
          materialization: 'table',
          uniqueKey: [],
          commitInfo: { test: 'progress' },
          retried: false,
          label: 'test',
          timeoutMs: 300_000,
        });
        // Three digests a row: about seven seconds on two cores, so many readings fall inside the run.
        const jobId = await submitJobOk(t, user, {
          sql: "SELECT count(*) AS n FROM big.numbers WHERE md5(md5(md5(CAST(x AS VARCHAR)))) LIKE '%abc%'",
          workspace_id: workspaceId,
        });
        const seen: number[] = [];
        for (;;) {
          const status = await jobStatus(t, user, jobId, '?limit=1');
          if (status.status === 'running' && status.progress > 0) seen.push(status.progress);
          if (status.status !== 'pending' && status.status !== 'running') {
            expect(status).toMatchObject({ status: 'succeeded', progress: 1 });
            break;
          }
          // About a heartbeat's round (half a second): a reading is mostly a newer one.
          await Bun.sleep(500);
        }
        // Two readings may carry the same heartbeat when the worker's turn comes late; progress never goes back, and it moves.
        for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThanOrEqual(seen[i - 1]!);
        expect(new Set(seen).size).toBeGreaterThanOrEqual(3);
        expect(seen.at(-1)!).toBeLessThan(1);
      }, 300_000);

    test('async_after_ms: a query that ends in time answers as /query would; one still running answers 202 with its job, counted once', async () => {
      const quick = await t.request('/api/v1/query', {
        method: 'POST',
        token: user.accessToken,
        json: { sql: 'SELECT 42 AS answer', workspace_id: workspaceId, async_after_ms: 10_000 },
      });
      expect(quick.status).toBe(200);
      expect(await bodyOf(quick)).toMatchObject({ columns: [{ name: 'answer', type: 'INTEGER' }], rows: [[42]], row_count: 1, metadata: { bytes_scanned: 0 } });
      const csv = await t.request(`/api/v1/workspaces/${workspaceId}/query`, {
        method: 'POST',
        token: user.accessToken,
        json: { sql: 'SELECT 1 AS a, 2 AS b', format: 'csv', async_after_ms: 10_000 },
      });
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toContain('text/csv');
      expect(await csv.text()).toBe('a,b\r\n1,2\r\n');
      const wrong = await t.request('/api/v1/query', {
        method: 'POST',
        token: user.accessToken,
        json: { sql: 'SELECT nope FROM range(1)', workspace_id: workspaceId, async_after_ms: 10_000 },
      });
      expect(wrong.status).toBe(400);
      expect((await bodyOf(wrong)).detail.error.code).toBe('UNDEFINED_COLUMN');

      const slow = await t.request(`/api/v1/workspaces/${workspaceId}/query`, {
        method: 'POST',
        token: user.accessToken,
        json: { sql: slowSql(20_000), async_after_ms: 300 },
      });
      expect(slow.status).toBe(202);
      const job = await bodyOf(slow);
      expect(job).toEqual({ job_id: expect.any(String), status: expect.stringMatching(/^(pending|running)$/), priority: 5, submitted_at: expect.any(String) });
      expect(slow.headers.get('x-ratelimit-limit')).not.toBeNull();
      expect((await jobStatus(t, user, job.job_id)).status).toMatch(/^(pending|running)$/);
      await t.request(`/api/v1/query/jobs/${job.job_id}/cancel`, { method: 'POST', token: user.accessToken });

      for (const asyncAfterMs of [99, 30_001]) {
        expect(
          (
            await t.request('/api/v1/query', {
              method: 'POST',
              token: user.accessToken,
              json: { sql: 'SELECT 1', workspace_id: workspaceId, async_after_ms: asyncAfterMs },
            })
          ).status,
        ).toBe(422);
      }
    }, 90_000);
  });
}
