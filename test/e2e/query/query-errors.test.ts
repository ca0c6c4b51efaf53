import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../../support/test-app';
import { bodyOf, errorOf } from '../../support/http';
import { createApiKey, createVerifiedUser, type TestUser } from '../../support/accounts';
import { createWorkspace, addPlan, usePlan } from '../../support/workspaces';
import { pushOk } from '../../support/lake';
import { withWorkspace } from '../../support/fixtures';

describe('query errors, one per code', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  const query = (sql: string, workspace = workspaceId, extra: Record<string, unknown> = {}) =>
    t.request(`/api/v1/workspaces/${workspace}/query`, { method: 'POST', json: { sql, ...extra }, token: user.accessToken });

  beforeAll(async () => {
    ({ t, user, workspaceId } = await withWorkspace('local', { env: { QUERY_MAX_RESULT_ROWS: '5000' }, label: 'errors' }));
    // Scans of more than 64 bytes are too large on it.
    await addPlan(t, { id: 'tiny', name: 'Tiny', queries_per_minute: 1000, max_scan_bytes: 64 });
    await usePlan(t, workspaceId, 'tiny');
    await pushOk(t, workspaceId, user, {
      table: 'shop.orders',
      records: Array.from({ length: 50 }, (_, id) => ({ id, customer: `c${id}`, amount: id * 2.5 })),
    });
  });
  afterAll(() => t.stop());

  test('MISSING_API_KEY, INVALID_API_KEY and EXPIRED_API_KEY are 401 on /execute', async () => {
    const execute = (headers: Record<string, string>) => t.request('/api/v1/execute', { method: 'POST', json: { sql: 'SELECT 1' }, headers });
    expect(await errorOf(await execute({}))).toMatchObject({ status: 401, code: 'MISSING_API_KEY' });
    expect(await errorOf(await execute({ 'x-api-key': 'oxb_not-a-key' }))).toMatchObject({ status: 401, code: 'INVALID_API_KEY' });
    const soon = new Date(t.clock.now().getTime() + 60_000).toISOString();
    const owner = await createVerifiedUser(t, 'expiring');
    const key = (await bodyOf(await t.request('/api/v1/auth/api-keys', { method: 'POST', json: { name: 'x', expires_at: soon }, token: owner.accessToken })))
      .key;
    t.clock.advance(61_000);
    expect(await errorOf(await execute({ 'x-api-key': key }))).toMatchObject({ status: 401, code: 'EXPIRED_API_KEY' });
  });

  test('SYNTAX_ERROR carries the position in its hint', async () => {
    const error = await errorOf(await query('SELECT id,\nFROM shop.orders WHERE'));
    expect(error).toMatchObject({ status: 400, code: 'SYNTAX_ERROR' });
    expect(error.hint).toContain('line 2');
    expect(error.hint).toContain('^');
  });

  test('UNDEFINED_TABLE suggests the table meant', async () => {
    const error = await errorOf(await query('SELECT * FROM shop.order'));
    expect(error).toMatchObject({ status: 400, code: 'UNDEFINED_TABLE', hint: 'Did you mean "shop.orders"?' });
  });

  test('UNDEFINED_COLUMN suggests the column meant', async () => {
    const error = await errorOf(await query('SELECT amont FROM shop.orders'));
    expect(error).toMatchObject({ status: 400, code: 'UNDEFINED_COLUMN' });
    expect(error.hint).toContain('amount');
  });

  test('QUERY_TOO_LARGE when the estimate exceeds the plan; force runs it anyway', async () => {
    const error = await errorOf(await query('SELECT * FROM shop.orders'));
    expect(error).toMatchObject({ status: 400, code: 'QUERY_TOO_LARGE' });
    expect((await query('SELECT * FROM shop.orders', workspaceId, { force: true })).status).toBe(200);
    const estimate = await bodyOf(await query('SELECT * FROM shop.orders', workspaceId, { estimate_only: true }));
    expect(estimate.exceeds_limit).toBe(true);
  });

  test('SNAPSHOT_NOT_FOUND names the earliest available time', async () => {
    const error = await errorOf(await query("SELECT id FROM shop.orders FOR SYSTEM_TIME AS OF '2001-01-01T00:00:00Z'", workspaceId, { force: true }));
    expect(error).toMatchObject({ status: 400, code: 'SNAPSHOT_NOT_FOUND' });
    expect(error.hint).toMatch(/earliest available time is \d{4}-/);
  });

  test('NO_WORKSPACE for a caller without one; WORKSPACE_ACCESS_DENIED for a stranger', async () => {
    const loner = await createVerifiedUser(t, 'loner');
    expect(await errorOf(await t.request('/api/v1/query', { method: 'POST', json: { sql: 'SELECT 1' }, token: loner.accessToken }))).toMatchObject({
      status: 400,
      code: 'NO_WORKSPACE',
    });
    const key = await createApiKey(t, loner, 'x');
    expect(await errorOf(await t.request('/api/v1/execute', { method: 'POST', json: { sql: 'SELECT 1' }, headers: { 'x-api-key': key } }))).toMatchObject({
      status: 400,
      code: 'NO_WORKSPACE',
    });
    const denied = await t.request('/api/v1/execute', { method: 'POST', json: { sql: 'SELECT 1', workspace_id: workspaceId }, headers: { 'x-api-key': key } });
    expect(await errorOf(denied)).toMatchObject({ status: 403, code: 'WORKSPACE_ACCESS_DENIED' });
  });

  test('STATEMENT_NOT_ALLOWED for anything but one read statement, executed nowhere', async () => {
    for (const sql of ['DROP TABLE shop.orders', 'INSERT INTO shop.orders VALUES (1)', 'SELECT 1; SELECT 2', "COPY shop.orders TO 'x.csv'"]) {
      expect(await errorOf(await query(sql))).toMatchObject({ status: 400, code: 'STATEMENT_NOT_ALLOWED' });
    }
    expect((await bodyOf(await query('SELECT count(*) AS n FROM shop.orders', workspaceId, { force: true }))).rows).toEqual([[50]]);
  });

  test('RESULT_TOO_LARGE points to query jobs', async () => {
    const error = await errorOf(await query('SELECT * FROM range(100000)'));
    expect(error).toMatchObject({ status: 400, code: 'RESULT_TOO_LARGE' });
    expect(error.hint).toContain('/query/jobs');
  });

  test('RATE_LIMITED exactly at the 11th query of a Free workspace, with Retry-After', async () => {
    const free = (await createWorkspace(t, user, 'free')).id;
    // A write opens the workspace's engine (a push is not a query): the ten count, none waits on the open.
    await pushOk(t, free, user, { table: 'app.opened', records: [{ id: 1 }] });
    for (let i = 1; i <= 10; i++) {
      const response = await query(`SELECT ${i}`, free);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(10 - i));
    }
    const eleventh = await query('SELECT 11', free);
    expect(await errorOf(eleventh)).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(eleventh.headers.get('x-ratelimit-remaining')).toBe('0');
    t.clock.advance(61_000);
    expect((await query('SELECT 12', free)).status).toBe(200);
  });

  test('concurrent queries cannot overrun the limit', async () => {
    const free = (await createWorkspace(t, user, 'burst')).id;
    const statuses = await Promise.all(Array.from({ length: 25 }, (_, i) => query(`SELECT ${i}`, free).then((response) => response.status)));
    // Exactly ten are admitted; with this suite's 1.5 s deadline, an admitted one may wait out its
    // deadline behind the plan's two running queries on a loaded machine (408): it still counted.
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    expect(statuses.filter((status) => status === 200 || status === 408)).toHaveLength(10);
  });

  test('INTERNAL_ERROR is a 500 without internals', async () => {
    const broken = await startTestApp('local');
    const { user: owner, workspaceId: workspace } = await withWorkspace(broken, { label: 'broken' });
    await broken.infra.store.close();
    const response = await broken.request(`/api/v1/workspaces/${workspace}/query`, { method: 'POST', json: { sql: 'SELECT 1' }, token: owner.accessToken });
    const error = await errorOf(response);
    expect(error).toMatchObject({ status: 500, code: 'INTERNAL_ERROR', message: 'An unexpected error occurred' });
    expect(JSON.stringify(error)).not.toMatch(/sqlite|database|closed/i);
    await broken.stop().catch(() => {});
  });
});
