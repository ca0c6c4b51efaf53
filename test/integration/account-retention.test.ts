import { afterEach, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import { createVerifiedUser } from '../support/accounts';
import { findUserById } from '../../src/auth/queries/users';
import { accountRetentionWorkflowId } from '../../src/workflow-clients/account-retention';
import { accountRetentionStatusQuery } from '../../src/workflows/account-retention';
import { namedQuery } from '../../src/store/named-query';
import { TemporalDevServer } from '../../src/temporal/dev-server';
import { createLogger } from '../../src/logging/logger';
import { freePort } from '../../src/process/ports';
import { testEnv } from '../support/test-env';

const credentialsLeft = namedQuery<{ user_id: string }, { keys: number; tokens: number }>(
  'test.credentials_left',
  `SELECT (SELECT count(*) FROM api_keys WHERE user_id = :user_id) AS keys,
          (SELECT count(*) FROM refresh_tokens WHERE user_id = :user_id) AS tokens`,
);

/** Deletes a fresh account with an API key, and returns what the purge should remove. */
async function deleteAccount(t: TestApp) {
  const user = await createVerifiedUser(t, 'leaving');
  await t.request('/api/v1/auth/api-keys', { method: 'POST', json: { name: 'soon gone' }, token: user.accessToken });
  const deleted = await t.request('/api/v1/auth/me/delete-account', { method: 'POST', json: { password: user.password }, token: user.accessToken });
  expect(deleted.status).toBe(204);
  return user;
}

async function expectPurged(t: TestApp, userId: string): Promise<void> {
  const row = await t.infra.store.first(findUserById, { id: userId });
  expect(row).toMatchObject({ email: `purged-${userId}@deleted.invalid`, name: null, password_hash: '!', purged_at: expect.any(String) });
  expect(await t.infra.store.first(credentialsLeft, { user_id: userId })).toEqual({ keys: 0, tokens: 0 });
}

describe('account retention on Temporal', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.stop();
    t = undefined;
  });

  test('a deleted account waits out the retention period on a durable timer, then its personal data is purged', async () => {
    t = await startTestApp('local', { worker: true, env: { ACCOUNT_RETENTION: '3s' } });
    const user = await deleteAccount(t);
    const handle = t.infra.temporal.client.workflow.getHandle(accountRetentionWorkflowId(user.userId));
    expect(await handle.query(accountRetentionStatusQuery)).toMatchObject({ userId: user.userId, state: 'waiting' });
    const stillThere = await t.infra.store.first(findUserById, { id: user.userId });
    expect(stillThere?.email).toBe(user.email);
    expect(await handle.result()).toBe('purged');
    await expectPurged(t, user.userId);
  }, 60_000);

  test('the wait survives a restart of the service', async () => {
    t = await startTestApp('local', { worker: true, env: { ACCOUNT_RETENTION: '6s' } });
    const user = await deleteAccount(t);
    await t.restart();
    const handle = t.infra.temporal.client.workflow.getHandle(accountRetentionWorkflowId(user.userId));
    expect(await handle.result()).toBe('purged');
    await expectPurged(t, user.userId);
  }, 60_000);

  test('the wait survives a restart of the Temporal dev server, whose SQLite file keeps the timer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oxbow-temporal-restart-'));
    const devServerOptions = {
      cliPath: join(testEnv.toolsDir(), 'bin', 'temporal'),
      host: '127.0.0.1',
      port: await freePort(),
      uiPort: await freePort(),
      namespace: 'default',
      dbFile: join(dir, 'temporal.sqlite'),
      logFile: join(dir, 'temporal.log'),
      logger: createLogger({ level: 'error' }),
    };
    let devServer = await TemporalDevServer.start(devServerOptions);
    try {
      t = await startTestApp('local', { worker: true, env: { ACCOUNT_RETENTION: '8s', TEMPORAL_ADDRESS: devServer.address } });
      const user = await deleteAccount(t);
      await devServer.stop();
      devServer = await TemporalDevServer.start(devServerOptions);
      await t.restart();
      const handle = t.infra.temporal.client.workflow.getHandle(accountRetentionWorkflowId(user.userId));
      expect(await handle.query(accountRetentionStatusQuery)).toMatchObject({ userId: user.userId });
      expect(await handle.result()).toBe('purged');
      await expectPurged(t, user.userId);
    } finally {
      await t?.stop();
      t = undefined;
      await devServer.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  test('a deletion that Temporal cannot take is refused and deletes nothing', async () => {
    t = await startTestApp('local', { env: { TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}` } });
    const user = await createVerifiedUser(t, 'kept');
    const refused = await t.request('/api/v1/auth/me/delete-account', { method: 'POST', json: { password: user.password }, token: user.accessToken });
    expect(refused.status).toBe(503);
    expect((await bodyOf(refused)).detail.error.code).toBe('SERVICE_UNAVAILABLE');
    expect((await t.request('/api/v1/auth/me', { token: user.accessToken })).status).toBe(200);
  }, 60_000);
});
