import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import type { TestApp } from '../../support/test-app';
import { bodyOf } from '../../support/http';
import { createVerifiedUser, type TestUser } from '../../support/accounts';
import { addMember, createWorkspace, useBusinessPlan } from '../../support/workspaces';
import { pushOk, query } from '../../support/lake';
import { namedQuery } from '../../../src/store/named-query';
import { withUser } from '../../support/fixtures';

const usageOf = namedQuery<{ workspace_id: string }, { source: string; status: string }>(
  'test.saved_query_usage',
  'SELECT source, status FROM query_usage WHERE workspace_id = :workspace_id ORDER BY created_at, id',
);

describe('saved queries', () => {
  let t: TestApp, owner: TestUser, viewer: TestUser;
  let workspaceId: string;
  let base: string;

  beforeAll(async () => {
    ({ t, user: owner } = await withUser('local', { label: 'saver' }));
    viewer = await createVerifiedUser(t, 'saved-viewer');
  });

  // Each test has a workspace of its own, whatever ran before it.
  beforeEach(async () => {
    workspaceId = (await createWorkspace(t, owner)).id;
    await addMember(t, workspaceId, owner, viewer, 'VIEWER');
    // Many runs within a minute: the plan with the highest per-minute limit (the limit itself is tested below).
    await useBusinessPlan(t, workspaceId);
    base = `/api/v1/workspaces/${workspaceId}/saved-queries`;
    await pushOk(t, workspaceId, owner, {
      table: 'shop.orders',
      records: [
        { id: 1, region: 'north', amount: 10, day: '2026-01-01', placed: '2026-01-01T10:00:00Z', paid: true },
        { id: 2, region: 'south', amount: 20, day: '2026-01-02', placed: '2026-01-02T10:00:00Z', paid: false },
        { id: 3, region: 'north', amount: 30, day: '2026-01-03', placed: '2026-01-03T10:00:00Z', paid: true },
        { id: 4, region: "o'hara", amount: 40, day: '2026-01-04', placed: '2026-01-04T10:00:00Z', paid: true },
      ],
    });
  });
  afterAll(() => t.stop());

  const create = (json: unknown, user = owner) => t.request(base, { method: 'POST', json, token: user.accessToken });
  const run = (name: string, json: unknown, user = owner) => t.request(`${base}/${name}/run`, { method: 'POST', json, token: user.accessToken });

  const byRegion = {
    name: 'by-region',
    description: 'Orders of one region',
    sql: 'SELECT id, amount FROM shop.orders WHERE region = {{region}} AND amount >= {{min_amount}} ORDER BY id',
    parameters: [
      { name: 'region', type: 'string' },
      { name: 'min_amount', type: 'integer', default: 0 },
    ],
  };

  const typedQuery = {
    name: 'typed',
    sql: `SELECT count(*) AS n FROM shop.orders
          WHERE amount > {{above}} AND amount < {{below}} AND paid = {{paid}} AND day >= {{from_day}} AND placed < {{until}}
            AND region = {{region}} AND ({{note}} IS NULL OR region = {{note}})`,
    parameters: [
      { name: 'above', type: 'integer' },
      { name: 'below', type: 'number', default: 1e9 },
      { name: 'paid', type: 'boolean', default: true },
      { name: 'from_day', type: 'date', default: '2026-01-01' },
      { name: 'until', type: 'timestamp', default: '2027-01-01T00:00:00Z' },
      { name: 'region', type: 'enum', options: ['north', 'south'], default: 'north' },
      { name: 'note', type: 'string', required: false },
    ],
  };
  const saved = async (...queries: unknown[]) => {
    for (const json of queries) expect((await create(json)).status).toBe(201);
  };

  test('create (planned, 201), get, list with X-Total-Count, duplicate 409, unknown 404', async () => {
    const created = await create(byRegion);
    expect(created.status).toBe(201);
    const record = await bodyOf(created);
    expect(record).toMatchObject({
      name: 'by-region',
      description: 'Orders of one region',
      sql: byRegion.sql,
      parameters: byRegion.parameters,
      workspace_id: workspaceId,
    });
    expect((await bodyOf(await t.request(`${base}/by-region`, { token: viewer.accessToken }))).id).toBe(record.id);
    const list = await t.request(base, { token: viewer.accessToken });
    expect(list.headers.get('x-total-count')).toBe('1');
    expect((await bodyOf(list)).map((entry: { name: string }) => entry.name)).toEqual(['by-region']);
    const duplicate = await create(byRegion);
    expect(duplicate.status).toBe(409);
    expect((await bodyOf(duplicate)).detail.error.code).toBe('CONFLICT');
    expect((await t.request(`${base}/nope`, { token: owner.accessToken })).status).toBe(404);
    expect((await run('nope', {})).status).toBe(404);
  });

  test('run binds typed values, applies defaults, answers like a query (formats, rate limit headers, usage kind saved_query)', async () => {
    await saved(byRegion);
    const response = await run('by-region', { parameters: { region: 'north' } }, viewer);
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(0);
    const body = await bodyOf(response);
    expect(body.rows).toEqual([
      [1, 10],
      [3, 30],
    ]);
    expect(body.metadata).toMatchObject({ bytes_scanned: expect.any(Number), cost_eur: expect.any(Number) });
    const objects = await bodyOf(await run('by-region', { parameters: { region: 'north', min_amount: '20' }, format: 'objects' }));
    expect(objects.data).toEqual([{ id: 3, amount: 30 }]);
    const csv = await run('by-region', { parameters: { region: 'south' }, format: 'csv' });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(await csv.text()).toBe('id,amount\r\n2,20\r\n');
    await t.services.usageRecorded();
    const usage = await t.infra.store.all(usageOf, { workspace_id: workspaceId });
    expect(usage.filter((entry) => entry.source === 'saved_query').length).toBeGreaterThanOrEqual(3);
  });

  test('every parameter type: integer, number, boolean, date, timestamp, enum; optional NULL', async () => {
    const typed = await create(typedQuery);
    expect(typed.status).toBe(201);
    const count = async (parameters: Record<string, unknown>) => (await bodyOf(await run('typed', { parameters }))).rows[0][0];
    expect(await count({ above: 0 })).toBe(2);
    expect(await count({ above: 15 })).toBe(1);
    expect(await count({ above: 0, paid: false, region: 'south' })).toBe(1);
    expect(await count({ above: 0, from_day: '2026-01-02' })).toBe(1);
    expect(await count({ above: 0, until: '2026-01-02T00:00:00' })).toBe(1);
    expect(await count({ above: 0, below: 25.5 })).toBe(1);
    expect(await count({ above: 0, note: 'north' })).toBe(2);
    expect(await count({ above: 0, note: 'south' })).toBe(0);
  });

  test('a value that does not fit its type, a missing required one, an unknown name and an enum outside its options are 422s naming the parameter', async () => {
    await saved(byRegion, typedQuery);
    const cases: [Record<string, unknown>, string][] = [
      [{ region: 'north', min_amount: 'ten' }, 'min_amount'],
      [{ region: 'north', min_amount: 1.5 }, 'min_amount'],
      [{ region: 'north', min_amount: '99999999999999999999' }, 'min_amount'],
      [{ region: 42 }, 'region'],
      [{}, 'region'],
      [{ region: 'north', extra: 1 }, 'extra'],
    ];
    for (const [parameters, name] of cases) {
      const response = await run('by-region', { parameters });
      expect(response.status).toBe(422);
      expect((await bodyOf(response)).detail.map((issue: { loc: unknown[] }) => issue.loc)).toContainEqual(['body', 'parameters', name]);
    }
    const enumCase = await run('typed', { parameters: { above: 0, region: 'west' } });
    expect(enumCase.status).toBe(422);
    expect((await bodyOf(enumCase)).detail[0].loc).toEqual(['body', 'parameters', 'region']);
    for (const [name, value] of [
      ['from_day', '2026-02-30'],
      ['until', 'yesterday'],
      ['paid', 'yes'],
      ['below', 'NaN'],
    ] as const) {
      const response = await run('typed', { parameters: { above: 0, [name]: value } });
      expect(response.status).toBe(422);
      expect((await bodyOf(response)).detail[0].loc).toEqual(['body', 'parameters', name]);
    }
  });

  test('injection attempts are bound as plain values: nothing runs but the saved statement, the table survives', async () => {
    await saved(byRegion);
    const attempts = [
      '0; DROP TABLE shop.orders; --',
      "north' OR '1'='1",
      "north'; DELETE FROM shop.orders; --",
      'north /* comment */',
      "x' UNION SELECT 1, 2 --",
      '$1',
      '{{region}}',
      'north\u0027)--',
    ];
    for (const region of attempts) {
      const response = await run('by-region', { parameters: { region } });
      expect(response.status).toBe(200);
      expect((await bodyOf(response)).rows).toEqual([]);
    }
    // A quote inside a value is a quote inside a value.
    expect((await bodyOf(await run('by-region', { parameters: { region: "o'hara" } }))).rows).toEqual([[4, 40]]);
    const integerAttempt = await run('by-region', { parameters: { region: 'north', min_amount: '0; DROP TABLE shop.orders' } });
    expect(integerAttempt.status).toBe(422);
    expect((await query(t, workspaceId, 'SELECT count(*) AS n FROM shop.orders'))[0]!.n).toBe(4);
  });

  test('saving refuses what a saved query cannot be: undeclared or unused parameters, raw markers, bad declarations, SQL that does not compile', async () => {
    const refusals: [unknown, number, unknown[]?][] = [
      [{ name: 'q1', sql: 'SELECT {{missing}}', parameters: [] }, 422, ['body', 'sql']],
      [{ name: 'q2', sql: 'SELECT 1', parameters: [{ name: 'unused', type: 'integer' }] }, 422, ['body', 'parameters', 0, 'name']],
      [{ name: 'q3', sql: "SELECT '{{inside}}'", parameters: [{ name: 'inside', type: 'string' }] }, 422, ['body', 'parameters', 0, 'name']],
      [{ name: 'q4', sql: 'SELECT $1', parameters: [] }, 422, ['body', 'sql']],
      [{ name: 'q5', sql: 'SELECT $region', parameters: [] }, 422, ['body', 'sql']],
      [{ name: 'q6', sql: 'SELECT {{e}}', parameters: [{ name: 'e', type: 'enum' }] }, 422, ['body', 'parameters', 0, 'options']],
      [{ name: 'q7', sql: 'SELECT {{n}}', parameters: [{ name: 'n', type: 'integer', default: 'many' }] }, 422, ['body', 'parameters', 0, 'default']],
      [
        {
          name: 'q8',
          sql: 'SELECT {{n}}',
          parameters: [
            { name: 'n', type: 'integer' },
            { name: 'n', type: 'string' },
          ],
        },
        422,
        ['body', 'parameters', 1, 'name'],
      ],
      [{ name: 'q9', sql: 'SELECT {{n}}', parameters: [{ name: 'n', type: 'money' }] }, 422],
      [{ name: 'Bad Name', sql: 'SELECT 1' }, 422],
      [{ name: 'q10', sql: 'SELEC 1' }, 400],
      [{ name: 'q11', sql: 'SELECT * FROM shop.missing' }, 400],
      [{ name: 'q12', sql: 'DROP TABLE shop.orders' }, 400],
      [{ name: 'q13', sql: 'SELECT ?' }, 400],
    ];
    for (const [body, status, loc] of refusals) {
      const response = await create(body);
      expect({ body, status: response.status }).toEqual({ body, status });
      if (loc) expect((await bodyOf(response)).detail.map((issue: { loc: unknown[] }) => issue.loc)).toContainEqual(loc);
    }
    // A placeholder in a comment or a string is text; so is a marker.
    const literal = await create({ name: 'literal', sql: "SELECT '{{x}}' AS a, '$1' AS b -- {{y}}\n" });
    expect(literal.status).toBe(201);
    expect((await bodyOf(await run('literal', {}))).rows).toEqual([['{{x}}', '$1']]);
  });

  test('a parameter marker stays refused in a plain query', async () => {
    for (const sql of ['SELECT $1', 'SELECT ?', 'SELECT $region', 'SELECT CAST($region AS VARCHAR)']) {
      const response = await t.request(`/api/v1/workspaces/${workspaceId}/query`, { method: 'POST', json: { sql }, token: owner.accessToken });
      expect(response.status).toBe(400);
      expect((await bodyOf(response)).detail.error.code).toBe('STATEMENT_NOT_ALLOWED');
    }
  });

  test("runs count against the workspace's per-minute limit: 429 RATE_LIMITED with Retry-After", async () => {
    const free = (await createWorkspace(t, owner, 'free')).id;
    const freeBase = `/api/v1/workspaces/${free}/saved-queries`;
    expect(
      (
        await t.request(freeBase, {
          method: 'POST',
          json: { name: 'one', sql: 'SELECT {{n}} AS n', parameters: [{ name: 'n', type: 'integer' }] },
          token: owner.accessToken,
        })
      ).status,
    ).toBe(201);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await t.request(`${freeBase}/one/run`, { method: 'POST', json: { parameters: { n: i } }, token: owner.accessToken })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    const refused = await t.request(`${freeBase}/one/run`, { method: 'POST', json: { parameters: { n: 1 } }, token: owner.accessToken });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await bodyOf(refused)).detail.error.code).toBe('RATE_LIMITED');
  });

  test('roles: a VIEWER reads and runs but cannot create or delete; a stranger is refused', async () => {
    await saved(byRegion);
    expect((await create({ name: 'viewer-made', sql: 'SELECT 1' }, viewer)).status).toBe(403);
    expect((await t.request(`${base}/by-region`, { method: 'DELETE', token: viewer.accessToken })).status).toBe(403);
    const stranger = await createVerifiedUser(t, 'stranger');
    expect((await t.request(base, { token: stranger.accessToken })).status).toBe(403);
    expect((await run('by-region', { parameters: { region: 'north' } }, stranger)).status).toBe(403);
  });

  test('delete: 204, then 404; a saved query charts read is 409 until they go', async () => {
    await saved(byRegion);
    expect((await create({ name: 'doomed', sql: 'SELECT 1 AS one' })).status).toBe(201);
    expect((await t.request(`${base}/doomed`, { method: 'DELETE', token: owner.accessToken })).status).toBe(204);
    expect((await t.request(`${base}/doomed`, { method: 'DELETE', token: owner.accessToken })).status).toBe(404);
    const chart = await t.request(`/api/v1/workspaces/${workspaceId}/charts`, {
      method: 'POST',
      token: owner.accessToken,
      json: {
        name: 'north-orders',
        title: 'North',
        saved_query: 'by-region',
        parameters: { region: 'north' },
        chart_type: 'bar',
        config: { x: 'id', y: ['amount'] },
      },
    });
    expect(chart.status).toBe(201);
    const refused = await t.request(`${base}/by-region`, { method: 'DELETE', token: owner.accessToken });
    expect(refused.status).toBe(409);
    expect((await bodyOf(refused)).detail.error.message).toContain('north-orders');
  });
});
