import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../../support/test-app';
import { bodyOf } from '../../support/http';
import { createApiKey, type TestUser } from '../../support/accounts';
import { createWorkspace } from '../../support/workspaces';
import { pushOk } from '../../support/lake';
import { namedQuery } from '../../../src/store/named-query';
import { startHttpServer } from '../../../src/api/server';
import { withWorkspace } from '../../support/fixtures';

const usageOf = namedQuery<
  { workspace_id: string },
  { source: string; status: string; error_code: string | null; bytes_scanned: number; rows_returned: number; api_key_id: string | null; user_id: string }
>(
  'test.usage_of',
  'SELECT source, status, error_code, bytes_scanned, rows_returned, api_key_id, user_id FROM query_usage WHERE workspace_id = :workspace_id ORDER BY created_at, id',
);

describe('query endpoints', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  let apiKey: string;
  beforeAll(async () => {
    ({ t, user, workspaceId } = await withWorkspace('local', { label: 'querier' }));
    apiKey = await createApiKey(t, user, 'q');
    await pushOk(t, workspaceId, user, {
      table: 'shop.orders',
      records: [
        { id: 1, customer: 'Ann, "the first"', amount: 10.5, placed: '2026-01-02T03:04:05Z', day: '2026-01-02', tags: ['a', 'b'] },
        { id: 2, customer: 'Bob', amount: 20, placed: '2026-01-03T00:00:00Z', day: '2026-01-03', tags: [] },
        // oxlint-disable-next-line no-loss-of-precision -- the JSON the client sends holds this integer past 2^53
        { id: 9007199254740993, customer: null, amount: 0.25, placed: '2026-01-04T00:00:00Z', day: '2026-01-04', tags: null },
      ],
    });
  });
  afterAll(() => t.stop());

  const post = (path: string, json: unknown, headers: Record<string, string> = {}, token?: string) => t.request(path, { method: 'POST', json, headers, token });

  test('json: columns with DuckDB types, rows, row_count, timing and metadata', async () => {
    const response = await post(
      `/api/v1/workspaces/${workspaceId}/query`,
      { sql: 'SELECT id, customer, amount, placed, day FROM shop.orders ORDER BY amount' },
      {},
      user.accessToken,
    );
    expect(response.status).toBe(200);
    const body = await bodyOf(response);
    expect(body.columns).toEqual([
      { name: 'id', type: 'DOUBLE' },
      { name: 'customer', type: 'VARCHAR' },
      { name: 'amount', type: 'DOUBLE' },
      { name: 'placed', type: 'TIMESTAMP WITH TIME ZONE' },
      { name: 'day', type: 'DATE' },
    ]);
    expect(body.rows[0]).toEqual([9007199254740992, null, 0.25, '2026-01-04T00:00:00.000Z', '2026-01-04']);
    expect(body.row_count).toBe(3);
    expect(body.execution_time_ms).toBeGreaterThan(0);
    expect(body.metadata).toEqual({ bytes_scanned: expect.any(Number), cost_eur: expect.any(Number), cpu_ms: expect.any(Number) });
    expect(body.metadata.bytes_scanned).toBeGreaterThan(0);
  });

  test('objects: one object per row', async () => {
    const body = await bodyOf(
      await post(
        '/api/v1/query',
        { sql: 'SELECT id::BIGINT AS id, tags FROM shop.orders WHERE id < 3 ORDER BY id', format: 'objects', workspace_id: workspaceId },
        {},
        user.accessToken,
      ),
    );
    expect(body.data).toEqual([
      { id: 1, tags: ['a', 'b'] },
      { id: 2, tags: [] },
    ]);
    expect(body.row_count).toBe(2);
  });

  test('csv over an API key: text/csv, a download name, a header row and RFC 4180 quoting', async () => {
    const response = await post(
      '/api/v1/execute',
      { sql: 'SELECT id::BIGINT AS id, customer, tags FROM shop.orders ORDER BY id', format: 'csv', workspace_id: workspaceId },
      { 'x-api-key': apiKey },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toStartWith('text/csv');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="query-.*\.csv"$/);
    expect(await response.text()).toBe('id,customer,tags\r\n1,"Ann, ""the first""","[""a"",""b""]"\r\n2,Bob,[]\r\n9007199254740992,,\r\n');
  });

  test('over HTTP a small result is one body with its length, a large one is streamed, and both read the same', async () => {
    const server = startHttpServer(t.app, { host: '127.0.0.1', port: 0 });
    const own = (await createWorkspace(t, user)).id;
    const sql = (rows: number) => `SELECT i::INTEGER AS i, repeat('é', 60) AS s FROM range(${rows}) t(i) ORDER BY i`;
    for (const [rows, format] of [
      [10, 'json'],
      [6_000, 'json'],
      [10, 'csv'],
      [6_000, 'csv'],
    ] as const) {
      const response = await fetch(`${server.url}/api/v1/workspaces/${own}/query`, {
        method: 'POST',
        // Uncompressed, so the length read is the text's (compression keeps the same framing: see compression.test.ts).
        headers: { 'content-type': 'application/json', authorization: `Bearer ${user.accessToken}`, 'accept-encoding': 'identity' },
        body: JSON.stringify({ sql: sql(rows), format }),
      });
      expect(response.status).toBe(200);
      const text = await response.text();
      const whole = rows === 10;
      expect(response.headers.get('content-length')).toBe(whole ? String(Buffer.byteLength(text)) : null);
      const values =
        format === 'json'
          ? (JSON.parse(text) as { rows: unknown[][] }).rows
          : text
              .trim()
              .split('\r\n')
              .slice(1)
              .map((line) => line.split(','));
      expect(values).toHaveLength(rows);
      expect(values[rows - 1]).toEqual(format === 'json' ? [rows - 1, 'é'.repeat(60)] : [String(rows - 1), 'é'.repeat(60)]);
    }
    await server.stop();
  });

  test('integers beyond ±2^53 are strings; JSON, lists, structs, blobs and intervals encode as documented', async () => {
    const body = await bodyOf(
      await post(
        `/api/v1/workspaces/${workspaceId}/query`,
        {
          sql: "SELECT 9007199254740993::BIGINT AS big, 42::BIGINT AS small, 1.5::DECIMAL(5,2) AS dec, {'a': 1, 'b': [1, 2]} AS s, '{\"k\": [1, null]}'::JSON AS j, '\\x01\\x02'::BLOB AS b, INTERVAL '1 day 2 hours' AS i, NULL AS n, 'NaN'::DOUBLE AS nan",
        },
        {},
        user.accessToken,
      ),
    );
    expect(body.rows[0]).toEqual(['9007199254740993', 42, 1.5, { a: 1, b: [1, 2] }, { k: [1, null] }, 'AQI=', 'P1DT2H', null, 'NaN']);
  });

  test('estimate_only returns the scan estimate without running, and counts no query', async () => {
    await t.services.usageRecorded();
    const before = (await t.infra.store.all(usageOf, { workspace_id: workspaceId })).length;
    const body = await bodyOf(
      await post('/api/v1/query', { sql: 'SELECT amount FROM shop.orders', workspace_id: workspaceId, estimate_only: true }, {}, user.accessToken),
    );
    expect(body).toEqual({
      estimate_only: true,
      bytes_scanned_estimate: expect.any(Number),
      cost_eur_estimate: expect.any(Number),
      accuracy: 'upper_bound',
      plan: 'free',
      plan_scan_limit_bytes: 10737418240,
      exceeds_limit: false,
      tables: ['shop.orders'],
    });
    expect(body.bytes_scanned_estimate).toBeGreaterThan(0);
    const all = await bodyOf(
      await post('/api/v1/query', { sql: 'SELECT * FROM shop.orders', workspace_id: workspaceId, estimate_only: true }, {}, user.accessToken),
    );
    expect(all.bytes_scanned_estimate).toBeGreaterThan(body.bytes_scanned_estimate);
    await t.services.usageRecorded();
    expect((await t.infra.store.all(usageOf, { workspace_id: workspaceId })).length).toBe(before);
  });

  test('every executed query writes one usage record naming the caller', async () => {
    const own = (await createWorkspace(t, user)).id;
    await pushOk(t, own, user, { table: 'u.t', records: [{ a: 1 }, { a: 2 }] });
    await post(`/api/v1/workspaces/${own}/query`, { sql: 'SELECT * FROM u.t' }, {}, user.accessToken);
    await post('/api/v1/execute', { sql: 'SELECT nope FROM u.t', workspace_id: own }, { 'x-api-key': apiKey });
    await t.services.usageRecorded();
    const usage = await t.infra.store.all(usageOf, { workspace_id: own });
    expect(usage).toEqual([
      { source: 'query', status: 'succeeded', error_code: null, bytes_scanned: expect.any(Number), rows_returned: 2, api_key_id: null, user_id: user.userId },
      {
        source: 'execute',
        status: 'failed',
        error_code: 'UNDEFINED_COLUMN',
        bytes_scanned: 0,
        rows_returned: 0,
        api_key_id: expect.any(String),
        user_id: user.userId,
      },
    ]);
    expect(usage[0]!.bytes_scanned).toBeGreaterThan(0);
  });

  test('every query response carries the rate-limit headers; /query/rate-limit reports the window', async () => {
    const own = (await createWorkspace(t, user)).id;
    const response = await post(`/api/v1/workspaces/${own}/query`, { sql: 'SELECT 1' }, {}, user.accessToken);
    expect(response.headers.get('x-ratelimit-limit')).toBe('10');
    expect(response.headers.get('x-ratelimit-remaining')).toBe('9');
    expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    const info = await bodyOf(await t.request(`/api/v1/query/rate-limit?workspace_id=${own}`, { token: user.accessToken }));
    expect(info).toEqual({ plan: 'free', limit: 10, used: 1, remaining: 9, reset_at: expect.any(String) });
    expect((await t.request('/api/v1/query/rate-limit', { token: user.accessToken })).status).toBe(422);
  });
});
