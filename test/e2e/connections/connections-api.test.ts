import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../../support/test-app';
import { createVerifiedUser, type TestUser } from '../../support/accounts';
import { addMember, createWorkspace, usePlan } from '../../support/workspaces';
import { bodyOf } from '../../support/http';
import { connectionsPath, createConnection, createConnectionOk } from '../../support/connections';
import { withWorkspace } from '../../support/fixtures';

/** An http_json spec; nothing listens at the address (these tests never reach the source). */
const httpSpec = (extra: Record<string, unknown> = {}) => ({ base_url: 'http://127.0.0.1:9/api', streams: [{ name: 'items', path: 'items' }], ...extra });

describe('connections: records, validation, refusals', () => {
  let t: TestApp, owner: TestUser, workspaceId: string;

  beforeAll(async () => ({ t, user: owner, workspaceId } = await withWorkspace('local', { label: 'conn-api', plan: 'business' })));
  afterAll(() => t.stop());

  test('the connector types, with the JSON Schema of their spec', async () => {
    const response = await t.request('/api/v1/connections/available-types', { token: owner.accessToken });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-total-count')).toBe('5');
    const types = await bodyOf(response);
    expect(types.map((type: { type: string }) => type.type)).toEqual(['postgres', 'http_json', 's3_files', 'hubspot', 'salesforce']);
    const postgres = types[0];
    expect(postgres).toMatchObject({ auth: 'none', configured: true, supports_live: true });
    expect(postgres.spec_schema.properties.password.writeOnly).toBe(true);
    expect(postgres.supported_sync_modes).toEqual(['full_refresh_overwrite', 'full_refresh_append', 'incremental_append', 'incremental_append_deduped']);
    expect((await t.request('/api/v1/connections/available-types')).status).toBe(401);
  });

  test('create, read, list, change and delete; secrets read ******** and a PATCH sending ******** keeps them', async () => {
    const workspaceId = (await createWorkspace(t, owner, 'conn-crud')).id;
    const created = await createConnectionOk(t, owner, workspaceId, {
      name: 'Crm',
      connector_type: 'http_json',
      spec: httpSpec({ auth_header: { name: 'Authorization', value: 'Bearer sekret-token' } }),
      sync_schedule: 'every 1h',
    });
    expect(created).toMatchObject({
      name: 'crm',
      schema_name: 'crm',
      connector_type: 'http_json',
      query_mode: 'synced',
      status: 'active',
      sync_schedule: 'every 1h',
      last_sync_at: null,
    });
    expect(created.spec.auth_header).toEqual({ name: 'Authorization', value: '********' });
    expect(created.spec.pagination.style).toBe('none');
    expect(JSON.stringify(created)).not.toContain('sekret');

    const base = `${connectionsPath(workspaceId)}/${created.id}`;
    expect(await bodyOf(await t.request(base, { token: owner.accessToken }))).toEqual(created);
    const list = await t.request(connectionsPath(workspaceId), { token: owner.accessToken });
    expect(list.headers.get('x-total-count')).toBe('1');
    expect((await bodyOf(list)).map((connection: { id: string }) => connection.id)).toEqual([created.id]);

    const patched = await t.request(base, {
      method: 'PATCH',
      json: { spec: { auth_header: { value: '********' }, pagination: { style: 'page_number' } }, sync_schedule: '*/30 * * * *', status: 'paused' },
      token: owner.accessToken,
    });
    expect(patched.status).toBe(200);
    const changed = await bodyOf(patched);
    expect(changed).toMatchObject({ sync_schedule: '*/30 * * * *', status: 'paused' });
    expect(changed.spec.pagination.style).toBe('page_number');
    expect(changed.spec.auth_header.value).toBe('********');
    const stored = t.services.connections;
    expect((await stored.row(workspaceId, created.id)).spec).not.toContain('sekret');

    const renamed = await t.request(base, { method: 'PATCH', json: { name: 'other' }, token: owner.accessToken });
    expect(renamed.status).toBe(422);
    expect((await bodyOf(renamed)).detail[0].loc).toEqual(['body', 'name']);

    expect((await t.request(base, { method: 'DELETE', token: owner.accessToken })).status).toBe(204);
    expect((await t.request(base, { token: owner.accessToken })).status).toBe(404);
  });

  test('a spec that breaks its type’s schema is a 422 naming the field', async () => {
    const cases: [Record<string, unknown>, (string | number)[]][] = [
      [{ name: 'a1', connector_type: 'postgres', spec: { host: 'db.example.com', database: 'x' } }, ['body', 'spec', 'username']],
      [{ name: 'a2', connector_type: 'postgres', spec: { host: 'db.example.com', database: 'x', username: 'u', port: 70000 } }, ['body', 'spec', 'port']],
      [
        { name: 'a3', connector_type: 'postgres', spec: { host: 'db.example.com', database: 'x', username: 'u', ssl_mode: 'sometimes' } },
        ['body', 'spec', 'ssl_mode'],
      ],
      [{ name: 'a4', connector_type: 'postgres', spec: { host: 'db.example.com', database: 'x', username: 'u', hots: 'typo' } }, ['body', 'spec', 'hots']],
      [{ name: 'a5', connector_type: 'http_json', spec: { base_url: 'ftp://x', streams: [{ name: 'a' }] } }, ['body', 'spec', 'base_url']],
      [
        { name: 'a6', connector_type: 'http_json', spec: { base_url: 'https://x.example', streams: [{ name: 'Bad Name' }] } },
        ['body', 'spec', 'streams', 0, 'name'],
      ],
      [{ name: 'a7', connector_type: 'mysql', spec: {} }, ['body', 'connector_type']],
      [{ name: '9lives', connector_type: 'http_json', spec: httpSpec() }, ['body', 'name']],
      [{ name: '__hidden', connector_type: 'http_json', spec: httpSpec() }, ['body', 'name']],
      [{ name: 'lake', connector_type: 'http_json', spec: httpSpec() }, ['body', 'name']],
      [{ name: 'a8', connector_type: 'http_json', spec: httpSpec(), sync_schedule: 'every 10s' }, ['body', 'sync_schedule']],
      [{ name: 'a9', connector_type: 'http_json', spec: httpSpec(), sync_schedule: '61 * * * *' }, ['body', 'sync_schedule']],
      [{ name: 'b1', connector_type: 'http_json', spec: httpSpec(), query_mode: 'live' }, ['body', 'query_mode']],
      [{ name: 'b2', connector_type: 'http_json', spec: 'not an object' }, ['body', 'spec']],
      [{ name: 'b3', connector_type: 'http_json', spec: httpSpec(), streams: [{ name: 'items' }, { name: 'items' }] }, ['body', 'streams', 1, 'name']],
      [{ connector_type: 'http_json', spec: httpSpec() }, ['body', 'name']],
    ];
    for (const [body, loc] of cases) {
      const response = await createConnection(t, owner, workspaceId, body);
      expect({ body, status: response.status }).toEqual({ body, status: 422 });
      expect((await bodyOf(response)).detail.map((issue: { loc: unknown }) => issue.loc)).toContainEqual(loc);
    }
  });

  test('a duplicate name is 409; unknown ids are 404', async () => {
    await createConnectionOk(t, owner, workspaceId, { name: 'twice', connector_type: 'http_json', spec: httpSpec() });
    const again = await createConnection(t, owner, workspaceId, { name: 'TWICE', connector_type: 'http_json', spec: httpSpec() });
    expect(again.status).toBe(409);
    const missing = `${connectionsPath(workspaceId)}/${Bun.randomUUIDv7()}`;
    for (const [method, path] of [
      ['GET', missing],
      ['PATCH', missing],
      ['DELETE', missing],
      ['POST', `${missing}/test`],
      ['GET', `${missing}/streams`],
      ['GET', `${missing}/sync-status`],
      ['POST', `${missing}/sync`],
      ['GET', `${missing}/sync-jobs`],
      ['GET', `${missing}/sync-jobs/${Bun.randomUUIDv7()}`],
      ['POST', `${missing}/preview`],
    ] as const) {
      const response = await t.request(path, {
        method,
        token: owner.accessToken,
        json: method === 'PATCH' ? {} : method === 'POST' && path.endsWith('preview') ? { stream: 'x' } : undefined,
      });
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 404 });
    }
  });

  test('the plan’s connector limit is 403 CONNECTOR_LIMIT_REACHED', async () => {
    const free = (await createWorkspace(t, owner, 'conn-free')).id;
    for (const name of ['one', 'two']) await createConnectionOk(t, owner, free, { name, connector_type: 'http_json', spec: httpSpec() });
    const third = await createConnection(t, owner, free, { name: 'three', connector_type: 'http_json', spec: httpSpec() });
    expect(third.status).toBe(403);
    expect((await bodyOf(third)).detail.error.code).toBe('CONNECTOR_LIMIT_REACHED');
  });

  test('pagination of the lists: limit 1–200, X-Total-Count', async () => {
    const ws = (await createWorkspace(t, owner, 'conn-pages')).id;
    await usePlan(t, ws, 'business');
    for (const name of ['p1', 'p2', 'p3']) await createConnectionOk(t, owner, ws, { name, connector_type: 'http_json', spec: httpSpec() });
    const page = await t.request(`${connectionsPath(ws)}?limit=2&offset=1`, { token: owner.accessToken });
    expect(page.headers.get('x-total-count')).toBe('3');
    expect((await bodyOf(page)).map((connection: { name: string }) => connection.name)).toEqual(['p2', 'p3']);
    expect((await t.request(`${connectionsPath(ws)}?limit=201`, { token: owner.accessToken })).status).toBe(422);
    expect((await t.request(`${connectionsPath(ws)}/sync-jobs?limit=0`, { token: owner.accessToken })).status).toBe(422);
    const jobs = await t.request(`${connectionsPath(ws)}/sync-jobs`, { token: owner.accessToken });
    expect(jobs.status).toBe(200);
    expect(jobs.headers.get('x-total-count')).toBe('0');
  });

  test('roles: VIEWER reads, MEMBER creates and changes, OWNER and ADMIN delete; strangers are refused', async () => {
    const ws = (await createWorkspace(t, owner, 'conn-roles')).id;
    await usePlan(t, ws, 'business');
    const people: Record<string, TestUser> = {};
    for (const role of ['ADMIN', 'MEMBER', 'VIEWER']) {
      people[role] = await createVerifiedUser(t, `conn-${role.toLowerCase()}`);
      await addMember(t, ws, owner, people[role]!, role);
    }
    const stranger = await createVerifiedUser(t, 'conn-stranger');
    const existing = await createConnectionOk(t, owner, ws, { name: 'existing', connector_type: 'http_json', spec: httpSpec() });
    const base = `${connectionsPath(ws)}/${existing.id}`;
    const expectStatus = async (user: TestUser, method: string, path: string, status: number, json?: unknown) => {
      const response = await t.request(path, { method, token: user.accessToken, json });
      expect({ method, path, status: response.status }).toEqual({ method, path, status });
      return response;
    };
    await expectStatus(people.VIEWER!, 'GET', connectionsPath(ws), 200);
    await expectStatus(people.VIEWER!, 'GET', base, 200);
    await expectStatus(people.VIEWER!, 'GET', `${base}/sync-status`, 200);
    await expectStatus(people.VIEWER!, 'GET', `${base}/sync-jobs`, 200);
    await expectStatus(people.VIEWER!, 'GET', `${connectionsPath(ws)}/sync-jobs`, 200);
    await expectStatus(people.VIEWER!, 'POST', connectionsPath(ws), 403, { name: 'v', connector_type: 'http_json', spec: httpSpec() });
    await expectStatus(people.VIEWER!, 'PATCH', base, 403, { status: 'paused' });
    await expectStatus(people.VIEWER!, 'POST', `${base}/sync`, 403);
    await expectStatus(people.VIEWER!, 'DELETE', base, 403);
    await expectStatus(people.MEMBER!, 'POST', connectionsPath(ws), 201, { name: 'm', connector_type: 'http_json', spec: httpSpec() });
    await expectStatus(people.MEMBER!, 'PATCH', base, 200, { status: 'paused' });
    const memberDelete = await expectStatus(people.MEMBER!, 'DELETE', base, 403);
    expect((await bodyOf(memberDelete)).detail.error.code).toBe('INSUFFICIENT_ROLE');
    await expectStatus(people.ADMIN!, 'DELETE', base, 204);
    for (const [method, path] of [
      ['GET', connectionsPath(ws)],
      ['GET', `${connectionsPath(ws)}/sync-jobs`],
      ['POST', connectionsPath(ws)],
    ] as const) {
      const response = await expectStatus(
        stranger,
        method,
        path,
        403,
        method === 'POST' ? { name: 's', connector_type: 'http_json', spec: httpSpec() } : undefined,
      );
      expect((await bodyOf(response)).detail.error.code).toBe('WORKSPACE_ACCESS_DENIED');
    }
    expect((await t.request(connectionsPath(ws))).status).toBe(401);
  });
});
