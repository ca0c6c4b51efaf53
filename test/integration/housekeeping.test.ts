import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import { createVerifiedUser } from '../support/accounts';
import { namedQuery } from '../../src/store/named-query';
import type { housekeepingWorkflow } from '../../src/workflows/housekeeping';

const countRows = namedQuery<{ user_id: string }, { codes: number; tokens: number }>(
  'test.count_user_rows',
  `SELECT (SELECT count(*) FROM session_codes WHERE user_id = :user_id) AS codes,
          (SELECT count(*) FROM refresh_tokens WHERE user_id = :user_id) AS tokens`,
);

describe('housekeeping workflow', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('local', { worker: true });
  });
  afterAll(() => t.stop());

  test('removes codes and tokens that ended more than a day ago, and keeps live ones', async () => {
    const user = await createVerifiedUser(t, 'tidy');
    await t.request('/api/v1/auth/session-code', { method: 'POST', token: user.accessToken });
    await t.request('/api/v1/auth/logout', { method: 'POST', json: { refresh_token: user.refreshToken } });
    expect(await t.infra.store.first(countRows, { user_id: user.userId })).toEqual({ codes: 1, tokens: 2 });

    t.clock.advance(2 * 24 * 3_600_000);
    const fresh = await bodyOf(await t.request('/api/v1/auth/login', { method: 'POST', json: { email: user.email, password: user.password } }));
    const removed = await t.infra.temporal.client.workflow.execute<typeof housekeepingWorkflow>('housekeepingWorkflow', {
      workflowId: `housekeeping-test-${crypto.randomUUID()}`,
      taskQueue: t.infra.temporal.taskQueue,
    });
    expect(removed['housekeeping.session_codes']).toBeGreaterThanOrEqual(1);
    // Gone: the expired code and the logged-out session's token. Kept: the code's session and the new login.
    expect(await t.infra.store.first(countRows, { user_id: user.userId })).toEqual({ codes: 0, tokens: 2 });
    expect((await t.request('/api/v1/auth/refresh', { method: 'POST', json: { refresh_token: fresh.refresh_token } })).status).toBe(200);
  }, 60_000);
});
