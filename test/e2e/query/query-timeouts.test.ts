// npm test: alone, QUERY_TIMEOUT must answer within a second of its 1.5 s timeout, and every other statement finish inside it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../../support/test-app';
import { bodyOf, errorOf } from '../../support/http';
import type { TestUser } from '../../support/accounts';
import { addPlan, createWorkspace, usePlan } from '../../support/workspaces';
import { pushOk } from '../../support/lake';
import { withWorkspace } from '../../support/fixtures';

/** A statement past QUERY_TIMEOUT: the answer, and what the workspace is left with. */
describe('query timeouts', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  const query = (sql: string, workspace = workspaceId, extra: Record<string, unknown> = {}) =>
    t.request(`/api/v1/workspaces/${workspace}/query`, { method: 'POST', json: { sql, ...extra }, token: user.accessToken });

  beforeAll(async () => {
    ({ t, user, workspaceId } = await withWorkspace('local', { env: { QUERY_TIMEOUT_MS: '1500', QUERY_MAX_RESULT_ROWS: '5000' }, label: 'timeouts' }));
    // Room for the many statements these tests send within a minute.
    await addPlan(t, { id: 'roomy', queries_per_minute: 1000 });
    await usePlan(t, workspaceId, 'roomy');
    await pushOk(t, workspaceId, user, {
      table: 'shop.orders',
      records: Array.from({ length: 50 }, (_, id) => ({ id, customer: `c${id}`, amount: id * 2.5 })),
    });
  });
  afterAll(() => t.stop());

  test('QUERY_TIMEOUT (408) answers a runaway query within a second of the timeout, and the workspace keeps working', async () => {
    const startedAt = performance.now();
    const error = await errorOf(await query('SELECT count(*) FROM range(1000000000000) a, range(10) b WHERE a.range % 7 = b.range'));
    const elapsed = performance.now() - startedAt;
    expect(error).toMatchObject({ status: 408, code: 'QUERY_TIMEOUT' });
    expect(elapsed).toBeGreaterThanOrEqual(1500);
    expect(elapsed).toBeLessThan(2500);
    expect((await query('SELECT 42 AS answer')).status).toBe(200);
  });

  test('a query that fails, times out or is cut off leaves no transaction open: the next ones see new writes', async () => {
    const workspace = (await createWorkspace(t, user, 'aftermath')).id;
    await usePlan(t, workspace, 'roomy');
    await pushOk(t, workspace, user, { table: 'app.events', records: [{ id: 1 }] });
    // More failures than the instance has read connections, side by side, so that every one of them fails once.
    // The runaway queries hold both DuckDB threads, so the others may reach their own timeout first; a
    // stream cut off by the timeout must still be a 408, never the rows read so far.
    const failing = [
      { sql: "SELECT CAST('x' || id AS INTEGER) FROM app.events", statuses: [400, 408] },
      { sql: 'SELECT * FROM range(100000)', statuses: [400, 408] },
      { sql: 'SELECT count(*) FROM range(1000000000000) a, range(10) b WHERE a.range % 7 = b.range', statuses: [408] },
    ];
    const outcomes = await Promise.all(
      Array.from({ length: 9 }, (_, i) => failing[i % failing.length]!).map(async ({ sql, statuses }) => ({
        sql,
        status: (await query(sql, workspace, { force: true })).status,
        statuses,
      })),
    );
    for (const { sql, status, statuses } of outcomes)
      expect({ sql, status: statuses.includes(status) ? 'as expected' : status }).toEqual({ sql, status: 'as expected' });
    await pushOk(t, workspace, user, { table: 'app.events', records: [{ id: 2 }] });
    const counts = await Promise.all(Array.from({ length: 8 }, () => query('SELECT count(*) AS n FROM app.events', workspace, { force: true }).then(bodyOf)));
    expect(counts.map((body) => body.rows)).toEqual(Array.from({ length: 8 }, () => [[2]]));
  });
});
