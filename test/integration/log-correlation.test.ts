import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../support/test-app';
import { uniqueEmail, type TestUser } from '../support/accounts';
import { submitJobOk, waitForJob } from '../support/jobs';
import { eventually } from '../support/eventually';
import { withWorkspace } from '../support/fixtures';

const linesOf = (t: TestApp) => t.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('log lines carry the request or workflow and the workspace they were written for', () => {
  let t: TestApp, user: TestUser, workspaceId: string;

  beforeAll(async () => ({ t, user, workspaceId } = await withWorkspace('local', { worker: true, label: 'logs' })));
  afterAll(() => t.stop());

  test('a line written deep inside a request carries the request id the client got', async () => {
    const response = await t.request('/api/v1/auth/signup', { method: 'POST', json: { email: uniqueEmail('log-line'), password: 'correct horse battery' } });
    const requestId = response.headers.get('x-request-id');
    const outbox = linesOf(t).filter((line) => line.msg === 'mail kept in the outbox (SMTP_URL is not set)' && line.request_id === requestId);
    expect(outbox).toHaveLength(1);
  });

  test('the access line of a workspace request names the workspace', async () => {
    const response = await t.request(`/api/v1/workspaces/${workspaceId}/query`, { method: 'POST', json: { sql: 'SELECT 1' }, token: user.accessToken });
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id');
    const access = await eventually(
      () => linesOf(t).find((line) => line.msg === 'request' && line.request_id === requestId),
      (line) => line !== undefined,
    );
    expect(access?.workspace_id).toBe(workspaceId);
  });

  test('an activity’s lines carry its workflow, and the workspace once it knows it', async () => {
    const jobId = await submitJobOk(t, user, { sql: 'SELECT nope FROM range(3)', workspace_id: workspaceId });
    expect((await waitForJob(t, user, jobId)).status).toBe('failed');
    t.services.logger.info('probe');
    const fromJob = linesOf(t).filter((line) => line.workflow_id === jobId);
    expect(fromJob.length).toBeGreaterThan(0);
    expect(fromJob.some((line) => line.workspace_id === workspaceId && line.activity === 'runQueryJob')).toBe(true);
  });
});
