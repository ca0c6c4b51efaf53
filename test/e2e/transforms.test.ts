import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../support/test-app';
import { createVerifiedUsers, type TestUser } from '../support/accounts';
import { addMember, createWorkspace } from '../support/workspaces';
import { pushOk } from '../support/lake';
import { bodyOf } from '../support/http';
import { createTransformOk, dagOf, transformsPath } from '../support/transforms';
import { withUser } from '../support/fixtures';

describe('transforms: definitions, validation and roles', () => {
  let t: TestApp, owner: TestUser, viewer: TestUser, member: TestUser, outsider: TestUser;
  let ws: string;

  beforeAll(async () => {
    ({ t, user: owner } = await withUser('local', { label: 'tf-owner' }));
    [viewer, member, outsider] = await createVerifiedUsers(t, 'tf-viewer', 'tf-member', 'tf-outsider');
    ws = await workspaceWithData();
  });
  /** Each test that counts what a workspace holds has one of its own: tests run in any order. */
  const workspaceWithData = async () => {
    const id = (await createWorkspace(t, owner)).id;
    await addMember(t, id, owner, viewer, 'VIEWER');
    await addMember(t, id, owner, member, 'MEMBER');
    await pushOk(t, id, owner, {
      table: 'raw.orders',
      records: [
        { id: 1, amount: 10, customer: 'a' },
        { id: 2, amount: 5, customer: 'b' },
      ],
    });
    return id;
  };
  afterAll(() => t.stop());

  const post = (body: unknown, user = owner) => t.request(transformsPath(ws), { method: 'POST', json: body, token: user.accessToken });

  test('create, read, list, change and delete, with inferred dependencies', async () => {
    const ws = await workspaceWithData();
    const base = await createTransformOk(t, ws, owner, {
      name: 'clean_orders',
      sql: 'SELECT id, amount::numeric AS amount, customer FROM raw.orders',
      target_table: 'staging.orders',
      description: 'typed',
    });
    expect(base).toMatchObject({
      name: 'clean_orders',
      target_table: 'staging.orders',
      materialization: 'table',
      unique_key: null,
      depends_on: [],
      last_run: null,
      description: 'typed',
    });
    // Reads a table that does not exist yet but is another transform's target: accepted, and a dependency.
    const totals = await createTransformOk(t, ws, member, {
      name: 'totals',
      sql: 'SELECT customer, sum(amount) AS total FROM staging.orders GROUP BY customer',
      target_table: 'marts.totals',
    });
    const detail = await bodyOf(await t.request(`${transformsPath(ws)}/${totals.id}`, { token: viewer.accessToken }));
    expect(detail.dependencies).toEqual([{ id: base.id, name: 'clean_orders' }]);
    const upstream = await bodyOf(await t.request(`${transformsPath(ws)}/${base.id}`, { token: viewer.accessToken }));
    expect(upstream.dependents).toEqual([{ id: totals.id, name: 'totals' }]);

    const list = await t.request(`${transformsPath(ws)}?limit=1`, { token: viewer.accessToken });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('2');
    expect((await bodyOf(list)).map((item: { name: string }) => item.name)).toEqual(['clean_orders']);

    const dag = await dagOf(t, ws, viewer);
    expect(dag.edges).toEqual([{ from: base.id, to: totals.id }]);
    expect(dag.order).toEqual([base.id, totals.id]);
    expect(dag.nodes.every((node: { stale: boolean; last_run_status: unknown }) => node.stale && node.last_run_status === null)).toBe(true);

    const patched = await t.request(`${transformsPath(ws)}/${totals.id}`, {
      method: 'PATCH',
      json: { materialization: 'view', description: null },
      token: member.accessToken,
    });
    expect(patched.status).toBe(200);
    expect(await bodyOf(patched)).toMatchObject({ materialization: 'view', description: null, target_table: 'marts.totals' });

    // Deleting what others depend on is refused unless cascading.
    const refused = await t.request(`${transformsPath(ws)}/${base.id}`, { method: 'DELETE', token: owner.accessToken });
    expect(refused.status).toBe(409);
    expect((await bodyOf(refused)).detail.error.hint).toContain('totals');
    expect((await t.request(`${transformsPath(ws)}/${base.id}?cascade=true`, { method: 'DELETE', token: member.accessToken })).status).toBe(204);
    expect((await t.request(`${transformsPath(ws)}/${totals.id}`, { token: owner.accessToken })).status).toBe(404);
  });

  test('dependencies come from the parse tree: subqueries, CTE bodies and joins count; strings, comments and names a CTE hides do not', async () => {
    const ws = await workspaceWithData();
    const a = await createTransformOk(t, ws, owner, { name: 'inf_a', sql: 'SELECT 1 AS x', target_table: 'inf.a' });
    const b = await createTransformOk(t, ws, owner, { name: 'inf_b', sql: 'SELECT 1 AS x', target_table: 'inf.b' });
    const c = await createTransformOk(t, ws, owner, { name: 'inf_c', sql: 'SELECT 2 AS x', target_table: 'inf.c' });
    const reader = await createTransformOk(t, ws, owner, {
      name: 'inf_reader',
      sql: `WITH picked AS (SELECT x FROM (SELECT x FROM INF.A) sub)
            SELECT picked.x, 'inf.b' AS note /* FROM inf.b */ FROM picked JOIN inf.c USING (x) JOIN raw.orders o ON o.id = picked.x`,
      target_table: 'inf.reader',
    });
    const detail = await bodyOf(await t.request(`${transformsPath(ws)}/${reader.id}`, { token: viewer.accessToken }));
    expect(detail.dependencies.map((dependency: { id: string }) => dependency.id).sort()).toEqual([a.id, c.id].sort());
    const dag = await dagOf(t, ws, viewer);
    expect(
      dag.edges
        .filter((edge: { to: string }) => edge.to === reader.id)
        .map((edge: { from: string }) => edge.from)
        .sort(),
    ).toEqual([a.id, c.id].sort());
    expect(dag.order.indexOf(reader.id)).toBeGreaterThan(Math.max(dag.order.indexOf(a.id), dag.order.indexOf(c.id)));
    // A CTE hides the table of its name inside its scope: no dependency on the transform writing main.shadow.
    await createTransformOk(t, ws, owner, { name: 'inf_shadow', sql: 'SELECT 1 AS x', target_table: 'main.shadow' });
    const hidden = await createTransformOk(t, ws, owner, {
      name: 'inf_hidden',
      sql: 'WITH shadow AS (SELECT 3 AS x) SELECT x FROM shadow',
      target_table: 'inf.hidden',
    });
    expect((await bodyOf(await t.request(`${transformsPath(ws)}/${hidden.id}`, { token: viewer.accessToken }))).dependencies).toEqual([]);
    const unhidden = await createTransformOk(t, ws, owner, { name: 'inf_unhidden', sql: 'SELECT x FROM shadow', target_table: 'inf.unhidden' });
    expect(
      (await bodyOf(await t.request(`${transformsPath(ws)}/${unhidden.id}`, { token: viewer.accessToken }))).dependencies.map(
        (dependency: { name: string }) => dependency.name,
      ),
    ).toEqual(['inf_shadow']);
    // Named explicitly, inf_b becomes one too.
    const patched = await t.request(`${transformsPath(ws)}/${reader.id}`, { method: 'PATCH', json: { depends_on: [b.id] }, token: owner.accessToken });
    expect(patched.status).toBe(200);
    const after = await bodyOf(await t.request(`${transformsPath(ws)}/${reader.id}`, { token: viewer.accessToken }));
    expect(after.dependencies.map((dependency: { id: string }) => dependency.id).sort()).toEqual([a.id, b.id, c.id].sort());
  });

  test('refusals: SQL, tables, targets, names, keys, dependencies and cycles', async () => {
    const expectError = async (body: Record<string, unknown>, status: number, code?: string) => {
      const response = await post({
        name: `bad_${Math.random().toString(36).slice(2, 8)}`,
        target_table: `bad.t_${Math.random().toString(36).slice(2, 8)}`,
        ...body,
      });
      expect(response.status).toBe(status);
      const error = await bodyOf(response);
      if (code) expect(error.detail.error.code).toBe(code);
      return error;
    };
    await expectError({ sql: 'SELEC 1' }, 400, 'SYNTAX_ERROR');
    await expectError({ sql: 'DELETE FROM raw.orders' }, 400, 'STATEMENT_NOT_ALLOWED');
    await expectError({ sql: 'SELECT 1; SELECT 2' }, 400, 'STATEMENT_NOT_ALLOWED');
    await expectError({ sql: 'SELECT * FROM raw.nope' }, 400, 'UNDEFINED_TABLE');
    await expectError({ sql: 'SELECT nope FROM raw.orders' }, 400, 'UNDEFINED_COLUMN');
    await expectError({ sql: "SELECT * FROM read_csv('/etc/passwd')" }, 400);
    await expectError({ sql: 'SELECT * FROM information_schema.tables' }, 400, 'UNDEFINED_TABLE');
    await expectError({ sql: "SELECT current_setting('threads')" }, 400, 'STATEMENT_NOT_ALLOWED');
    expect((await expectError({ sql: 'SELECT 1', target_table: 'no_schema' }, 422)).detail[0].loc).toEqual(['body', 'target_table']);
    expect((await expectError({ sql: 'SELECT 1', target_table: 'lake.t' }, 422)).detail[0].loc).toEqual(['body', 'target_table']);
    expect((await expectError({ sql: 'SELECT 1', materialization: 'incremental' }, 422)).detail[0].loc).toEqual(['body', 'unique_key']);
    expect((await expectError({ sql: 'SELECT 1', unique_key: 'id' }, 422)).detail[0].loc).toEqual(['body', 'unique_key']);
    expect((await expectError({ sql: 'SELECT 1', name: 'Bad Name' }, 422)).detail[0].loc).toEqual(['body', 'name']);
    await expectError({ sql: 'SELECT 1', depends_on: ['01890000-0000-7000-8000-000000000000'] }, 404, 'NOT_FOUND');

    const first = await createTransformOk(t, ws, owner, { name: 'cyc_a', sql: 'SELECT 1 AS x', target_table: 'cyc.a' });
    expect((await post({ name: 'cyc_a', sql: 'SELECT 1', target_table: 'cyc.other' })).status).toBe(409);
    expect((await post({ name: 'cyc_other', sql: 'SELECT 1', target_table: 'cyc.a' })).status).toBe(409);
    const second = await createTransformOk(t, ws, owner, { name: 'cyc_b', sql: 'SELECT x FROM cyc.a', target_table: 'cyc.b' });
    const cycle = await t.request(`${transformsPath(ws)}/${first.id}`, { method: 'PATCH', json: { depends_on: [second.id] }, token: owner.accessToken });
    expect(cycle.status).toBe(400);
    const error = (await bodyOf(cycle)).detail.error;
    expect(error.code).toBe('DAG_CYCLE');
    expect([`cyc_a → cyc_b → cyc_a (each depends on the next)`, `cyc_b → cyc_a → cyc_b (each depends on the next)`]).toContain(error.hint);
    await expectError({ sql: 'SELECT * FROM cyc.self_target', target_table: 'cyc.self_target' }, 400, 'DAG_CYCLE');
  });

  test('roles: viewers read, members and above change and run, outsiders see nothing', async () => {
    const created = await createTransformOk(t, ws, owner, { name: 'roles_t', sql: 'SELECT 1 AS one', target_table: 'roles.t' });
    const one = `${transformsPath(ws)}/${created.id}`;
    expect((await post({ name: 'by_viewer', sql: 'SELECT 1', target_table: 'roles.v' }, viewer)).status).toBe(403);
    expect((await t.request(one, { method: 'PATCH', json: { sql: 'SELECT 2 AS one' }, token: viewer.accessToken })).status).toBe(403);
    expect((await t.request(one, { method: 'DELETE', token: viewer.accessToken })).status).toBe(403);
    expect((await t.request(`${one}/run`, { method: 'POST', token: viewer.accessToken })).status).toBe(403);
    expect((await t.request(`${transformsPath(ws)}/run`, { method: 'POST', token: viewer.accessToken })).status).toBe(403);
    expect((await t.request(`${transformsPath(ws)}/schedule`, { method: 'PUT', json: { schedule: 'every 1h' }, token: viewer.accessToken })).status).toBe(403);
    expect((await t.request(`${one}/runs`, { token: viewer.accessToken })).status).toBe(200);
    expect((await t.request(`${transformsPath(ws)}/schedule`, { token: viewer.accessToken })).status).toBe(200);
    for (const path of [transformsPath(ws), `${transformsPath(ws)}/dag`, one, `${one}/runs`]) {
      const response = await t.request(path, { token: outsider.accessToken });
      expect(response.status).toBe(403);
      expect((await bodyOf(response)).detail.error.code).toBe('WORKSPACE_ACCESS_DENIED');
    }
    const elsewhere = (await createWorkspace(t, outsider)).id;
    expect((await t.request(`${transformsPath(elsewhere)}/${created.id}`, { token: outsider.accessToken })).status).toBe(404);
    expect((await t.request(one, { method: 'PATCH', json: { description: 'ok' }, token: member.accessToken })).status).toBe(200);
    expect((await t.request(`${one}/runs?limit=0`, { token: viewer.accessToken })).status).toBe(422);
    const missing = `${transformsPath(ws)}/01890000-0000-7000-8000-000000000000`;
    for (const [path, method] of [
      [missing, 'GET'],
      [missing, 'PATCH'],
      [missing, 'DELETE'],
      [`${missing}/run`, 'POST'],
      [`${missing}/runs`, 'GET'],
    ] as const) {
      const response = await t.request(path, { method, ...(method === 'PATCH' ? { json: { description: 'x' } } : {}), token: member.accessToken });
      expect(response.status).toBe(404);
    }
    expect((await t.request(`${transformsPath(ws)}/not-a-uuid`, { token: member.accessToken })).status).toBe(422);
  });

  test('the DAG schedule: set, read, refuse and remove', async () => {
    const ws = await workspaceWithData();
    const path = `${transformsPath(ws)}/schedule`;
    expect(await bodyOf(await t.request(path, { token: viewer.accessToken }))).toEqual({ schedule: null, next_runs: [], updated_at: null });
    const every = await t.request(path, { method: 'PUT', json: { schedule: 'every 90m' }, token: member.accessToken });
    expect(every.status).toBe(200);
    expect((await bodyOf(every)).schedule).toBe('every 90m');
    const cron = await t.request(path, { method: 'PUT', json: { schedule: '0  6 * * 1-5' }, token: member.accessToken });
    expect((await bodyOf(cron)).schedule).toBe('0 6 * * 1-5');
    const handle = t.infra.temporal.client.schedule.getHandle(`transform-dag-schedule-${ws}`);
    expect((await handle.describe()).spec.calendars?.length ?? 0).toBeGreaterThan(0);
    for (const bad of ['every 10s', 'every soon', '* * *', 'a b c d e']) {
      const response = await t.request(path, { method: 'PUT', json: { schedule: bad }, token: member.accessToken });
      expect(response.status).toBe(422);
    }
    expect((await t.request(path, { method: 'DELETE', token: member.accessToken })).status).toBe(204);
    expect((await bodyOf(await t.request(path, { token: viewer.accessToken }))).schedule).toBeNull();
    expect(
      await handle.describe().then(
        () => 'exists',
        () => 'gone',
      ),
    ).toBe('gone');
  });
});
