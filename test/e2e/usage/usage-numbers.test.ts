import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../../support/backends';
import { startTestApp, type TestApp } from '../../support/test-app';
import { bodyOf } from '../../support/http';
import { createApiKey, type TestUser } from '../../support/accounts';
import { pushOk } from '../../support/lake';
import { submitJobOk, waitForJob } from '../../support/jobs';
import { withWorkspace } from '../../support/fixtures';
import { eventually } from '../../support/eventually';
import { namedQuery } from '../../../src/store/named-query';

const usageCount = namedQuery<{ workspace_id: string }, { n: number | string }>(
  'test.usage_numbers_count',
  'SELECT count(*) AS n FROM query_usage WHERE workspace_id = :workspace_id',
);

/**
 * A known sequence of queries around two month ends (UTC), through every path that runs one, and what
 * the usage endpoints make of it: counts, bytes, rows, days, kinds and the calendar periods.
 */
for (const backend of backends)
  describe(`usage numbers on ${backend}`, () => {
    let t: TestApp;
    let user: TestUser, workspaceId: string;
    let apiKey: string;
    /** bytes_scanned of each successful query, as its own answer reported it. */
    const scanned: Record<string, number> = {};

    const relogin = async () => {
      const login = await t.request('/api/v1/auth/login', { method: 'POST', json: { email: user.email, password: user.password } });
      user = { ...user, accessToken: (await bodyOf(login)).access_token };
    };
    const runQuery = async (sql: string, path = `/api/v1/workspaces/${workspaceId}/query`) =>
      t.request(path, { method: 'POST', json: { sql }, token: user.accessToken });
    const get = async (path: string) => {
      const response = await t.request(`/api/v1/workspaces/${workspaceId}/usage${path}`, { token: user.accessToken });
      expect(response.status).toBe(200);
      return bodyOf(response);
    };

    beforeAll(async () => {
      t = await startTestApp(backend, { worker: true });
      t.clock.set('2026-01-31T23:50:00Z');
      ({ user, workspaceId } = await withWorkspace(t, { label: 'usage' }));
      apiKey = await createApiKey(t, user, 'usage');
      await pushOk(t, workspaceId, user, {
        table: 'shop.orders',
        records: [
          { id: 1, amount: 10 },
          { id: 2, amount: 20 },
          { id: 3, amount: 30 },
        ],
      });

      // A query's usage record is queued right after its answer has gone out: the clock moves on only
      // once the records of the queries answered so far are there, or a busy machine would date them later.
      const recorded = async (count: number) => {
        const counted = async () => {
          await t.services.usageRecorded();
          return Number((await t.infra.store.first(usageCount, { workspace_id: workspaceId }))!.n);
        };
        expect(await eventually(counted, (n) => n >= count, 10_000)).toBe(count);
      };

      // The last second of January (UTC): two queries that succeed and one that fails. The clock stands
      // still meanwhile: on a busy machine the three (the first opens the workspace's engine) take longer
      // than the second that is left of the month.
      t.clock.set('2026-01-31T23:59:59.000Z');
      t.clock.hold();
      const all = await runQuery('SELECT * FROM shop.orders');
      scanned.all = (await bodyOf(all)).metadata.bytes_scanned;
      expect((await runQuery('SELECT 1')).status).toBe(200);
      expect((await runQuery('SELECT * FROM shop.nope')).status).toBe(400);

      await recorded(3);
      t.clock.release();

      // The first seconds of February: two queries with the API key and a job.
      t.clock.set('2026-02-01T00:00:01.000Z');
      const execute = await t.request('/api/v1/execute', {
        method: 'POST',
        json: { sql: 'SELECT amount FROM shop.orders WHERE id < 3', workspace_id: workspaceId },
        headers: { 'x-api-key': apiKey },
      });
      scanned.execute = (await bodyOf(execute)).metadata.bytes_scanned;
      expect(
        (await t.request('/api/v1/execute', { method: 'POST', json: { sql: 'SELECT 42', workspace_id: workspaceId }, headers: { 'x-api-key': apiKey } }))
          .status,
      ).toBe(200);
      const job = await waitForJob(t, user, await submitJobOk(t, user, { sql: 'SELECT id FROM shop.orders', workspace_id: workspaceId }));
      expect(job.status).toBe('succeeded');
      scanned.job = job.result.bytes_scanned;

      await recorded(6);

      // 1 March (February 2026 has 28 days), half a minute in.
      t.clock.set('2026-03-01T00:00:30.000Z');
      await relogin();
      expect((await runQuery('SELECT 2')).status).toBe(200);
    });
    afterAll(() => t.stop());

    test('January: three queries on its last day, one failed; bytes and rows as the queries reported them', async () => {
      const january = await get('?start_date=2026-01-01&end_date=2026-01-31');
      expect(scanned.all).toBeGreaterThan(0);
      expect(january).toMatchObject({
        query_count: 3,
        failed_query_count: 1,
        total_bytes_scanned: scanned.all,
        total_bytes_scanned_gb: scanned.all! / 1e9,
        total_rows_returned: 4,
        period_start: '2026-01-01',
        period_end: '2026-01-31',
      });
      expect(january.by_kind).toEqual([
        { kind: 'query', count: 3, failed_count: 1, bytes_scanned: scanned.all, cpu_ms: expect.any(Number), rows_returned: 4, cost_eur: expect.any(Number) },
      ]);
    });

    test('February: the API key and job queries of its first second, each under its kind', async () => {
      const february = await get('?start_date=2026-02-01');
      expect(february).toMatchObject({
        query_count: 3,
        failed_query_count: 0,
        total_bytes_scanned: scanned.execute! + scanned.job!,
        total_rows_returned: 2 + 1 + 3,
        period_start: '2026-02-01',
        period_end: '2026-02-28',
      });
      expect(february.by_kind.map((kind: { kind: string; count: number }) => [kind.kind, kind.count])).toEqual([
        ['execute', 2],
        ['job', 1],
      ]);
      // Only an end: the first day of its month.
      expect(await get('?end_date=2026-02-28')).toEqual(february);
    });

    test('the default summary is the current calendar month', async () => {
      expect(await get('')).toMatchObject({ query_count: 1, total_rows_returned: 1, period_start: '2026-03-01', period_end: '2026-03-31' });
    });

    test('a period across the month ends adds the months up', async () => {
      expect(await get('?start_date=2026-01-31&end_date=2026-03-01')).toMatchObject({
        query_count: 7,
        failed_query_count: 1,
        total_bytes_scanned: scanned.all! + scanned.execute! + scanned.job!,
        total_rows_returned: 11,
      });
      expect(await get('?start_date=2026-02-02&end_date=2026-02-28')).toMatchObject({ query_count: 0, total_bytes_scanned: 0, by_kind: [] });
    });

    test('daily: one row per day, zeros on the days without queries', async () => {
      const days = await get('/daily?start_date=2026-01-30&end_date=2026-02-02');
      expect(days.map((day: { date: string; query_count: number }) => [day.date, day.query_count])).toEqual([
        ['2026-01-30', 0],
        ['2026-01-31', 3],
        ['2026-02-01', 3],
        ['2026-02-02', 0],
      ]);
      expect(days[0]).toEqual({
        date: '2026-01-30',
        query_count: 0,
        failed_query_count: 0,
        total_bytes_scanned: 0,
        total_bytes_scanned_gb: 0,
        total_cpu_ms: 0,
        total_rows_returned: 0,
        total_cost_eur: 0,
        by_kind: [],
      });
    });

    test('daily by default: the last 30 days up to today, every query in them', async () => {
      const response = await t.request(`/api/v1/workspaces/${workspaceId}/usage/daily`, { token: user.accessToken });
      expect(response.headers.get('x-total-count')).toBe('30');
      const days = await bodyOf(response);
      expect(days).toHaveLength(30);
      expect(days[0].date).toBe('2026-01-31');
      expect(days[29].date).toBe('2026-03-01');
      expect(days.reduce((sum: number, day: { query_count: number }) => sum + day.query_count, 0)).toBe(7);
      // Only a start: 30 days from it.
      const fromStart = await get('/daily?start_date=2026-02-01');
      expect([fromStart[0].date, fromStart.at(-1).date, fromStart.length]).toEqual(['2026-02-01', '2026-03-02', 30]);
    });

    test('current period: the calendar month against the plan', async () => {
      expect(await get('/current')).toMatchObject({
        plan: 'free',
        period_start: '2026-03-01',
        period_end: '2026-03-31',
        days_elapsed: 1,
        days_in_period: 31,
        query_count: 1,
        queries_included: 1000,
        queries_remaining: 999,
        overage_queries: 0,
        estimated_cost_eur: 0,
      });
    });

    test('dashboard: the plan, the month’s queries, the lake’s storage and the connectors', async () => {
      const tables = await bodyOf(await t.request(`/api/v1/workspaces/${workspaceId}/query/tables`, { token: user.accessToken }));
      const tableBytes = tables.tables.reduce((sum: number, table: { size_bytes: number }) => sum + table.size_bytes, 0);
      expect(tableBytes).toBeGreaterThan(0);
      expect(await get('/dashboard')).toEqual({
        plan_tier: 'free',
        plan_name: 'Free',
        plan_price: 0,
        overage_price: 0,
        queries_used: 1,
        queries_included: 1000,
        queries_remaining: 999,
        overage_queries: 0,
        storage_used_bytes: tableBytes,
        storage_used_gb: tableBytes / 1e9,
        storage_limit_gb: 5,
        storage_remaining_gb: 5 - tableBytes / 1e9,
        connectors_used: 0,
        connectors_limit: 2,
        max_running_jobs: 1,
        query_history_days: 7,
        estimated_cost_mtd: 0,
        period_start: '2026-03-01',
        period_end: '2026-03-31',
      });
    });

    test('export, CSV: a header row and one line per record of the period, in time order', async () => {
      const response = await t.request(`/api/v1/workspaces/${workspaceId}/usage/export?start_date=2026-01-01&end_date=2026-01-31`, { token: user.accessToken });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toStartWith('text/csv');
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="usage-2026-01-01-2026-01-31.csv"');
      const lines = (await response.text()).trimEnd().split('\r\n');
      expect(lines[0]).toBe(
        'id,created_at,kind,status,error_code,user_id,api_key_id,job_id,statement_hash,bytes_scanned,cpu_ms,rows_returned,duration_ms,cost_eur',
      );
      expect(lines).toHaveLength(4);
      const rows = lines.slice(1).map((line) => line.split(','));
      expect(rows.map((row) => [row[2], row[3], row[4], row[5], row[11]])).toEqual([
        ['query', 'succeeded', '', user.userId, '3'],
        ['query', 'succeeded', '', user.userId, '1'],
        ['query', 'failed', 'UNDEFINED_TABLE', user.userId, '0'],
      ]);
      for (const row of rows) expect(row[1]!.startsWith('2026-01-31T23:59:59')).toBe(true);
    });

    test('export, JSON: the records of the current month by default', async () => {
      const march = await bodyOf(await t.request(`/api/v1/workspaces/${workspaceId}/usage/export?format=json`, { token: user.accessToken }));
      expect(march).toEqual([expect.objectContaining({ kind: 'query', status: 'succeeded', rows_returned: 1, user_id: user.userId })]);
      const february = await bodyOf(
        await t.request(`/api/v1/workspaces/${workspaceId}/usage/export?format=json&start_date=2026-02-01`, { token: user.accessToken }),
      );
      expect(february.map((record: { kind: string }) => record.kind)).toEqual(['execute', 'execute', 'job']);
      expect(february[2].job_id).toEqual(expect.any(String));
      expect(february[0].api_key_id).toEqual(expect.any(String));
      expect(february.reduce((sum: number, record: { bytes_scanned: number }) => sum + record.bytes_scanned, 0)).toBe(scanned.execute! + scanned.job!);
    });

    test.each([
      ['?start_date=2026-02-30', 'start_date'],
      ['?start_date=2026/01/01', 'start_date'],
      ['?end_date=26-01-01', 'end_date'],
      ['?start_date=2026-13-01', 'start_date'],
      ['?start_date=0000-01-01', 'start_date'],
      ['?start_date=2026-03-01&end_date=2026-02-01', 'start_date'],
      ['/daily?start_date=2026-03-02&end_date=2026-03-01', 'start_date'],
      ['/daily?start_date=2025-01-01&end_date=2026-03-01', 'end_date'],
      ['/export?end_date=2026-02-31', 'end_date'],
      ['/export?format=xml', 'format'],
    ])('%s is a 422 naming %s', async (query, parameter) => {
      const response = await t.request(`/api/v1/workspaces/${workspaceId}/usage${query}`, { token: user.accessToken });
      expect(response.status).toBe(422);
      expect((await bodyOf(response)).detail[0].loc).toEqual(['query', parameter]);
    });
  });
