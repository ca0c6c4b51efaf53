import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Elysia } from 'elysia';
import type { TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import { createApiKey, type TestUser } from '../support/accounts';
import { submitJobOk, waitForJob } from '../support/jobs';
import { httpBasics } from '../../src/api/plugins/http-basics';
import { AppError } from '../../src/errors/app-error';
import { createLogger } from '../../src/logging/logger';
import { withWorkspace } from '../support/fixtures';

type Expected = string | number | boolean | null | Expected[] | { [key: string]: Expected };

/**
 * Values DuckDB holds and JavaScript's number and Date cannot: each comes back in every format as the
 * documented text, never as a 500, an approximation or a shifted value.
 */
const extremes: [string, string, Expected][] = [
  ['ts_inf', "'infinity'::TIMESTAMP", 'infinity'],
  ['ts_ninf', "'-infinity'::TIMESTAMP", '-infinity'],
  ['tstz_inf', "'infinity'::TIMESTAMPTZ", 'infinity'],
  ['date_inf', "'infinity'::DATE", 'infinity'],
  ['date_ninf', "'-infinity'::DATE", '-infinity'],
  ['ts_js_max', "'275760-09-14'::TIMESTAMP", '+275760-09-14T00:00:00.000'],
  ['ts_max', "'294247-01-10 04:00:54.775806'::TIMESTAMP", '+294247-01-10T04:00:54.775806'],
  ['ts_bc', "'290309-12-22 (BC) 00:00:00'::TIMESTAMP", '-290308-12-22T00:00:00.000'],
  ['tstz_far', "'100000-01-01 12:00:00+00'::TIMESTAMPTZ", '+100000-01-01T12:00:00.000Z'],
  ['date_max', "'5881580-07-10'::DATE", '+5881580-07-10'],
  ['date_year_zero', "'0001-01-01 (BC)'::DATE", '0000-01-01'],
  ['ts_ns', "TIMESTAMP_NS '2262-04-11 23:47:16.854775806'", '2262-04-11T23:47:16.854775806'],
  ['ts_before_epoch', "'1969-12-31 23:59:59.999999'::TIMESTAMP", '1969-12-31T23:59:59.999999'],
  ['ubigint_max', '18446744073709551615::UBIGINT', '18446744073709551615'],
  ['bigint_min', '(-9223372036854775808)::BIGINT', '-9223372036854775808'],
  ['dec38', '12345678901234567890123456789012345678::DECIMAL(38,0)', '12345678901234567890123456789012345678'],
  ['dec38_fraction', '-1234567890123456789.0123456789::DECIMAL(38,10)', '-1234567890123456789.0123456789'],
  ['dec_small', '1.50::DECIMAL(10,2)', 1.5],
  ['nan', "'NaN'::DOUBLE", 'NaN'],
  ['inf', "'inf'::DOUBLE", 'Infinity'],
  ['ninf', "'-inf'::FLOAT", '-Infinity'],
  [
    'struct_keys',
    "{'__proto__': 1, 'constructor': 'c', 'toString': 2, 'hasOwnProperty': 3}",
    JSON.parse('{"__proto__": 1, "constructor": "c", "toString": 2, "hasOwnProperty": 3}'),
  ],
  ['list_of_inf', "['infinity'::TIMESTAMP, '-infinity'::TIMESTAMP, NULL]", ['infinity', '-infinity', null]],
];

/** Parquet has no 128-bit integers and keeps intervals to the millisecond: jobs write these as text and read them back. */
const streamedOnly: [string, string, Expected][] = [
  ['hugeint_max', '170141183460469231731687303715884105727::HUGEINT', '170141183460469231731687303715884105727'],
  ['hugeint_min', '(-170141183460469231731687303715884105728)::HUGEINT', '-170141183460469231731687303715884105728'],
  ['uhugeint_max', '340282366920938463463374607431768211455::UHUGEINT', '340282366920938463463374607431768211455'],
  ['interval_micro', "INTERVAL '0.000001 seconds'", 'PT0.000001S'],
  ['interval_negative', "-INTERVAL '1.5 seconds'", 'PT-1.5S'],
  ['interval_long', "INTERVAL '178956970 years 7 months'", 'P178956970Y7M'],
  [
    'nested',
    "{'big': [170141183460469231731687303715884105727::HUGEINT], 'when': 'infinity'::DATE}",
    { big: ['170141183460469231731687303715884105727'], when: 'infinity' },
  ],
];

const sqlOf = (cases: [string, string, Expected][]) => `SELECT ${cases.map(([name, expression]) => `${expression} AS "${name}"`).join(', ')}`;
const objectOf = (cases: [string, string, Expected][]) => Object.fromEntries(cases.map(([name, , value]) => [name, value]));
const csvOf = (value: Expected) => {
  const text = value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

describe('values JavaScript cannot hold', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  let apiKey: string;
  beforeAll(async () => {
    ({ t, user, workspaceId } = await withWorkspace('local', { worker: true, label: 'extremes', plan: 'business' }));
    apiKey = await createApiKey(t, user, 'extremes');
  });
  afterAll(() => t.stop());

  const endpoints = () => [
    { name: '/execute', path: '/api/v1/execute', auth: { headers: { 'x-api-key': apiKey } }, extra: { workspace_id: workspaceId } },
    { name: '/query', path: '/api/v1/query', auth: { token: user.accessToken }, extra: { workspace_id: workspaceId } },
    { name: '/workspaces/{id}/query', path: `/api/v1/workspaces/${workspaceId}/query`, auth: { token: user.accessToken }, extra: {} },
  ];
  const run = async (endpoint: ReturnType<typeof endpoints>[number], sql: string, format: string) => {
    const response = await t.request(endpoint.path, { method: 'POST', json: { sql, format, ...endpoint.extra }, ...endpoint.auth });
    expect(response.status).toBe(200);
    return response;
  };

  for (const cases of [extremes, streamedOnly]) {
    test.each(['/execute', '/query', '/workspaces/{id}/query'])(`%s answers ${cases.length} extreme values in json, objects and csv`, async (name) => {
      const endpoint = endpoints().find((candidate) => candidate.name === name)!;
      const sql = sqlOf(cases);
      const json = await bodyOf(await run(endpoint, sql, 'json'));
      expect(json.rows).toEqual([cases.map(([, , value]) => value)]);
      const objects = await bodyOf(await run(endpoint, sql, 'objects'));
      expect(objects.data).toEqual([objectOf(cases)]);
      const csv = await (await run(endpoint, sql, 'csv')).text();
      expect(csv).toBe(`${cases.map(([column]) => column).join(',')}\r\n${cases.map(([, , value]) => csvOf(value)).join(',')}\r\n`);
    });
  }

  test('the same values in a table: pushed timestamps read back beside far and infinite ones', async () => {
    const response = await t.request(`/api/v1/workspaces/${workspaceId}/push`, {
      method: 'POST',
      json: { table: 'edge.times', records: [{ id: 1, at: '2026-01-01T00:00:00Z' }] },
      token: user.accessToken,
    });
    expect(response.status).toBe(200);
    const body = await bodyOf(
      await run(
        endpoints()[2]!,
        "SELECT at FROM edge.times UNION ALL SELECT 'infinity'::TIMESTAMPTZ UNION ALL SELECT '-infinity'::TIMESTAMPTZ ORDER BY at",
        'json',
      ),
    );
    expect(body.rows).toEqual([['-infinity'], ['2026-01-01T00:00:00.000Z'], ['infinity']]);
  });

  test('a JSON value nested 60,000 levels deep is written out, not a stack overflow', async () => {
    const depth = 60_000;
    const sql = `SELECT (repeat('[', ${depth}) || repeat(']', ${depth}))::JSON AS deep, 1 AS one`;
    for (const format of ['json', 'objects', 'csv']) {
      const text = await (await run(endpoints()[0]!, sql, format)).text();
      expect(text).toContain('['.repeat(depth));
      expect(text).toContain(']'.repeat(depth));
    }
  });

  test('a job holding such values succeeds and every page format reads back', async () => {
    const jobId = await submitJobOk(t, user, { sql: sqlOf(extremes), workspace_id: workspaceId });
    const done = await waitForJob(t, user, jobId);
    expect(done.status).toBe('succeeded');
    expect(done.result.rows).toEqual([extremes.map(([, , value]) => value)]);
    const objects = await bodyOf(await t.request(`/api/v1/query/jobs/${jobId}?format=objects`, { token: user.accessToken }));
    expect(objects.result.data).toEqual([objectOf(extremes)]);
    const csv = await bodyOf(await t.request(`/api/v1/query/jobs/${jobId}?format=csv&limit=1&offset=0`, { token: user.accessToken }));
    expect(csv.result.csv).toBe(`${extremes.map(([column]) => column).join(',')}\r\n${extremes.map(([, , value]) => csvOf(value)).join(',')}\r\n`);
  });

  test('a job keeps 128-bit integers and intervals to the microsecond, and their types', async () => {
    const jobId = await submitJobOk(t, user, { sql: sqlOf(streamedOnly), workspace_id: workspaceId });
    const done = await waitForJob(t, user, jobId);
    expect(done.status).toBe('succeeded');
    expect(done.result.rows).toEqual([streamedOnly.map(([, , value]) => value)]);
    expect(done.result.columns.map((column: { type: string }) => column.type)).toContain('HUGEINT');
    const objects = await bodyOf(await t.request(`/api/v1/query/jobs/${jobId}?format=objects`, { token: user.accessToken }));
    expect(objects.result.data).toEqual([objectOf(streamedOnly)]);
  });

  test('a job whose JSON result nests 60,000 levels deep pages out', async () => {
    const jobId = await submitJobOk(t, user, { sql: "SELECT (repeat('[', 60000) || repeat(']', 60000))::JSON AS deep", workspace_id: workspaceId });
    expect((await waitForJob(t, user, jobId)).status).toBe('succeeded');
    for (const format of ['json', 'objects', 'csv']) {
      const response = await t.request(`/api/v1/query/jobs/${jobId}?format=${format}`, { token: user.accessToken });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('['.repeat(60_000));
    }
  });
});

describe('an internal error the code anticipated', () => {
  const logLines: string[] = [];
  const probe = new Elysia().use(httpBasics(createLogger({ level: 'info', sink: (line) => logLines.push(line) }))).get('/broken', () => {
    throw new AppError('INTERNAL_ERROR', 'The query failed unexpectedly', { cause: new Error('Unimplemented type for cast (TIMESTAMP_MS -> BIGINT)') });
  });

  test('quotes the request id and leaves its cause in the log, not in the answer', async () => {
    const response = await probe.handle(new Request('http://localhost/broken', { headers: { 'x-request-id': 'client-request-0001' } }));
    expect(response.status).toBe(500);
    const body = await bodyOf(response);
    expect(body.detail.error).toEqual({
      code: 'INTERNAL_ERROR',
      message: 'The query failed unexpectedly',
      hint: 'Quote request id client-request-0001 when reporting this.',
    });
    expect(JSON.stringify(body)).not.toContain('Unimplemented');
    const line = logLines.find((entry) => entry.includes('client-request-0001'));
    expect(line).toContain('Unimplemented type for cast');
  });
});
