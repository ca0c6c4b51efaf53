import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { freePort } from '../../src/process/ports';
import { createVerifiedUsers, type TestUser } from '../support/accounts';
import { connectionsPath, createConnection, createConnectionOk, createSourceDatabase, postgresSpec, type SourceDatabase } from '../support/connections';
import { parseCsv } from '../support/csv';
import { attackConfigurations, privateNetworksAllowed, TenantSource } from '../support/egress-servers';
import { bodyOf } from '../support/http';
import { pushOk } from '../support/lake';
import { PostgresPasswordCatcher } from '../support/postgres-password-catcher';
import { startTestApp, type TestApp } from '../support/test-app';
import { testEnv } from '../support/test-env';
import { addMember } from '../support/workspaces';
import { withWorkspace } from '../support/fixtures';

/** IPv6 spellings of private IPv4 addresses that once passed the `deny` policy, and their kin. */
const embeddedPrivate = [
  '[::127.0.0.1]',
  '[::a9fe:a9fe]',
  '[::ffff:0:7f00:1]',
  '[64:ff9b:1::a9fe:a9fe]',
  '[2002:7f00:1::1]',
  '[::ffff:127.0.0.1]',
  '[64:ff9b::a9fe:a9fe]',
  '[2001::ffff:ffff:f5ff:fffe]',
];
const numericForms = ['2130706433', '0177.0.0.1', '0x7f.0.0.1', '127.1', '0251.0376.0251.0376'];

/**
 * The attacks a malicious tenant made on connections, each one again: in the default configuration
 * (private networks allowed), in production (refused) and in production with them allowed.
 */
describe.each(attackConfigurations)('attacks on connections, in %s', (_, env) => {
  let t: TestApp;
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let workspaceId: string;
  let ownSource: TenantSource;
  let attacker: TenantSource;
  let database: SourceDatabase;
  let catcher: PostgresPasswordCatcher;
  let counter = 0;
  const privateAllowed = privateNetworksAllowed(env);
  const uiPort = () => Number(new URL(testEnv.temporalUiUrl()).port);

  beforeAll(async () => {
    ownSource = new TenantSource();
    attacker = new TenantSource();
    catcher = new PostgresPasswordCatcher('cleartext');
    database = await createSourceDatabase();
    t = await startTestApp('local', { env: { ...env, METRICS_PORT: String(await freePort()), PUBLIC_VIEWS_PER_ADDRESS: '1000' } });
    ({ user: owner, workspaceId } = await withWorkspace(t, { label: 'attacks', plan: 'enterprise' }));
    [admin, member] = await createVerifiedUsers(t, 'admin', 'member');
    await addMember(t, workspaceId, owner, admin, 'ADMIN');
    await addMember(t, workspaceId, owner, member, 'MEMBER');
  });
  afterAll(async () => {
    await t.stop();
    ownSource.stop();
    attacker.stop();
    catcher.stop();
    await database.drop();
  });

  const create = (user: TestUser, connectorType: string, spec: Record<string, unknown>) =>
    createConnection(t, user, workspaceId, { name: `a${++counter}`, connector_type: connectorType, spec });
  const patch = (user: TestUser, id: string, spec: Record<string, unknown>) =>
    t.request(`${connectionsPath(workspaceId)}/${id}`, { method: 'PATCH', json: { spec }, token: user.accessToken });
  const read = async (id: string) => (await bodyOf(await t.request(`${connectionsPath(workspaceId)}/${id}`, { token: owner.accessToken }))).spec;
  const codeOf = async (response: Response) => ({ status: response.status, code: (await bodyOf(response)).detail?.error?.code });

  test('the Temporal Web UI as an http_json source, its workflows and schedules, created or patched', async () => {
    const ui = `http://127.0.0.1:${uiPort()}/`;
    for (const path of ['api/v1/namespaces/default/workflows', 'api/v1/namespaces/default/schedules']) {
      expect(await codeOf(await create(member, 'http_json', { base_url: ui, streams: [{ name: 'leak', path, records_path: 'executions' }] }))).toEqual({
        status: 400,
        code: 'SOURCE_NOT_ALLOWED',
      });
    }
    const innocent = await createConnectionOk(t, member, workspaceId, {
      name: `a${++counter}`,
      connector_type: 'http_json',
      spec: { base_url: 'https://93.184.215.14/', streams: [{ name: 'x' }] },
    });
    expect(await codeOf(await patch(member, innocent.id, { base_url: ui }))).toEqual({ status: 400, code: 'SOURCE_NOT_ALLOWED' });
    expect(await codeOf(await patch(member, innocent.id, { streams: [{ name: 'x', path: `${ui}api/v1/namespaces/default/schedules` }] }))).toEqual({
      status: 400,
      code: 'SOURCE_NOT_ALLOWED',
    });
  });

  test('a member cannot point an owner’s connection holding secrets elsewhere; an admin can, and the secrets stay behind', async () => {
    const where = privateAllowed
      ? { pg: postgresSpec(database, { password: 'owners-password' }), http: ownSource.origin }
      : { pg: { host: 'owner-db.invalid', port: 5432, database: 'shop', username: 'u', password: 'owners-password' }, http: 'https://93.184.215.14' };
    const away = privateAllowed ? { host: '127.0.0.1', port: catcher.port } : { host: 'attacker.invalid', port: 5433 };
    const pg = await createConnectionOk(t, owner, workspaceId, { name: `a${++counter}`, connector_type: 'postgres', spec: where.pg });
    const http = await createConnectionOk(t, owner, workspaceId, {
      name: `a${++counter}`,
      connector_type: 'http_json',
      spec: { base_url: where.http, auth_header: { name: 'Authorization', value: 'Bearer owners-token' }, streams: [{ name: 'items', path: 'items' }] },
    });
    const attackerUrl = privateAllowed ? attacker.origin : 'https://198.51.100.0.nip.invalid';
    for (const [id, change] of [
      [pg.id, away],
      [pg.id, { database: 'another' }],
      [http.id, { base_url: attackerUrl }],
      [http.id, { streams: [{ name: 'items', path: `${attackerUrl}/items` }] }],
    ] as const) {
      expect({ change, ...(await codeOf(await patch(member, id, change))) }).toEqual({ change, status: 403, code: 'INSUFFICIENT_ROLE' });
    }
    expect(await read(pg.id)).toMatchObject({ ...('host' in where.pg ? { host: where.pg.host } : {}), password: '********' });
    expect((await read(http.id)).auth_header).toEqual({ name: 'Authorization', value: '********' });
    // What does not change where the connection points is a member's to change.
    expect((await patch(member, pg.id, { schemas: ['public', 'sales'] })).status).toBe(200);
    expect((await patch(member, http.id, { headers: { 'X-Page-Size': '10' } })).status).toBe(200);
    expect((await read(pg.id)).password).toBe('********');

    // An admin may; the secrets the change does not set anew are cleared.
    expect((await patch(admin, pg.id, away)).status).toBe(200);
    expect((await read(pg.id)).password).toBe('');
    expect((await patch(admin, http.id, { base_url: attackerUrl, auth_header: { value: '********' } })).status).toBe(200);
    expect((await read(http.id)).auth_header).toEqual({ name: 'Authorization' });
    // Set anew in the same change, a secret stays.
    expect((await patch(admin, pg.id, { database: 'elsewhere', password: 'a-new-one' })).status).toBe(200);
    expect((await read(pg.id)).password).toBe('********');

    if (privateAllowed) {
      // What the attacker's servers received: no token, and no password (which was cleared, and would only go by SCRAM).
      await t.request(`${connectionsPath(workspaceId)}/${http.id}/test`, { method: 'POST', token: member.accessToken });
      expect(attacker.seen.length).toBeGreaterThan(0);
      expect(attacker.seen.map((request) => request.headers.authorization)).toEqual(attacker.seen.map(() => undefined));
      expect((await patch(admin, pg.id, { database: database.name, password: '' })).status).toBe(200);
      await t.request(`${connectionsPath(workspaceId)}/${pg.id}/test`, { method: 'POST', token: member.accessToken });
      expect(catcher.caught).toEqual([]);
    }
  });

  test('a member who blanks a password may then point the connection elsewhere: nothing is left to follow it', async () => {
    const pg = await createConnectionOk(t, owner, workspaceId, {
      name: `a${++counter}`,
      connector_type: 'postgres',
      spec: { host: 'owner-db.invalid', database: 'shop', username: 'u', password: 'owners-password' },
    });
    expect((await patch(member, pg.id, { password: '' })).status).toBe(200);
    expect((await patch(member, pg.id, { host: 'members-db.invalid' })).status).toBe(200);
    expect(await read(pg.id)).toMatchObject({ host: 'members-db.invalid', password: '' });
  });

  test('auth headers go to the configured origin only: not after a redirect, a next-page link or a stream path to another', async () => {
    if (!privateAllowed) return;
    const spec = (path: string, pagination: Record<string, unknown> = {}) => ({
      base_url: ownSource.origin,
      headers: { 'X-Api-Key': 'plain-but-private' },
      auth_header: { name: 'Authorization', value: 'Bearer owners-token' },
      pagination,
      streams: [{ name: 'items', path }],
    });
    const other = `${attacker.origin}/items`;
    const relative = (url: string) => url.slice(ownSource.origin.length + 1);
    for (const [label, body] of [
      ['redirect', spec(relative(ownSource.redirectTo(other)))],
      ['next-page link', spec(relative(ownSource.linkTo(other)), { style: 'link_header' })],
      ['stream path', spec(other)],
    ] as const) {
      const connection = await createConnectionOk(t, owner, workspaceId, { name: `a${++counter}`, connector_type: 'http_json', spec: body });
      const seenBefore = attacker.seen.length;
      const preview = await t.request(`${connectionsPath(workspaceId)}/${connection.id}/preview`, {
        method: 'POST',
        json: { stream: 'items' },
        token: owner.accessToken,
      });
      expect({ label, status: preview.status }).toEqual({ label, status: 200 });
      const received = attacker.seen.slice(seenBefore);
      expect({ label, requests: received.length }).toEqual({ label, requests: 1 });
      expect({ label, authorization: received[0]!.headers.authorization, key: received[0]!.headers['x-api-key'] }).toEqual({
        label,
        authorization: undefined,
        key: undefined,
      });
    }
    // A redirect within the origin keeps them.
    const same = await createConnectionOk(t, owner, workspaceId, {
      name: `a${++counter}`,
      connector_type: 'http_json',
      spec: spec(relative(ownSource.redirectTo(`${ownSource.origin}/items`))),
    });
    const seenBefore = ownSource.seen.length;
    await t.request(`${connectionsPath(workspaceId)}/${same.id}/preview`, { method: 'POST', json: { stream: 'items' }, token: owner.accessToken });
    expect(ownSource.seen.slice(seenBefore).map((request) => request.headers.authorization)).toEqual(['Bearer owners-token', 'Bearer owners-token']);
  });

  test('IPv6 spellings of private IPv4 addresses, and numeric IPv4 forms', async () => {
    for (const host of [...embeddedPrivate, ...numericForms]) {
      const response = await create(member, 'http_json', { base_url: `http://${host}:${uiPort() + 1}/`, streams: [{ name: 'x' }] });
      const outcome = await codeOf(response);
      // Private addresses are private wherever that is refused; on the Temporal Web UI's port, loopback always is.
      if (!privateAllowed) expect({ host, ...outcome }).toEqual({ host, status: 400, code: 'SOURCE_NOT_ALLOWED' });
      const onUi = await codeOf(await create(member, 'http_json', { base_url: `http://${host}:${uiPort()}/`, streams: [{ name: 'x' }] }));
      if (!privateAllowed || /127|7f00|2130706433|0177|0x7f/.test(host)) expect({ host, ...onUi }).toEqual({ host, status: 400, code: 'SOURCE_NOT_ALLOWED' });
    }
    // As a Postgres host, on the Temporal Web UI's port: no spelling of loopback gets through.
    for (const host of [
      '::127.0.0.1',
      '::ffff:0:7f00:1',
      '2002:7f00:1::1',
      '::ffff:127.0.0.1',
      '64:ff9b::7f00:1',
      '2130706433',
      '0177.0.0.1',
      '0x7f.0.0.1',
      '127.1',
    ]) {
      const response = await create(member, 'postgres', { host, port: uiPort(), database: 'x', username: 'x' });
      if (response.status === 201) {
        // A name the policy cannot resolve is never connected to: the test says so.
        const tested = await bodyOf(
          await t.request(`${connectionsPath(workspaceId)}/${(await bodyOf(response)).id}/test`, { method: 'POST', token: member.accessToken }),
        );
        expect({ host, success: tested.success, unresolved: /does not resolve/.test(tested.message) }).toEqual({ host, success: false, unresolved: true });
      } else {
        expect({ host, ...(await codeOf(response)) }).toEqual({ host, status: 400, code: 'SOURCE_NOT_ALLOWED' });
      }
    }
    for (const host of ['[::ffff:8.8.8.8]', '[64:ff9b::808:808]', '[2002:808:808::1]']) {
      expect({ host, status: (await create(member, 'http_json', { base_url: `https://${host}/`, streams: [{ name: 'x' }] })).status }).toEqual({
        host,
        status: 201,
      });
    }
  });

  test('values that once made a 500: an S3 region holding statement text or URL characters, a saved query around getvariable', async () => {
    for (const region of ["us-east-1', ENDPOINT '127.0.0.1:1', USE_SSL 'false", 'x y/#?@:[]']) {
      const response = await create(member, 's3_files', { bucket: 'data', region, streams: [{ name: 'files', glob: '*.csv', format: 'csv' }] });
      expect({ region, status: response.status }).toEqual({ region, status: 422 });
      expect((await bodyOf(response)).detail[0].loc).toEqual(['body', 'spec', 'region']);
    }
    const saved = await t.request(`/api/v1/workspaces/${workspaceId}/saved-queries`, {
      method: 'POST',
      json: { name: `gv${counter++}`, sql: 'SELECT getvariable({{p}})', parameters: [{ name: 'p', type: 'string' }] },
      token: member.accessToken,
    });
    expect(await codeOf(saved)).toEqual({ status: 400, code: 'QUERY_ERROR' });
  });

  test('a public chart’s CSV does not hand a spreadsheet formulas', async () => {
    await pushOk(t, workspaceId, owner, {
      table: 'shared.cells',
      records: [
        { label: '=HYPERLINK("http://evil.example","x")', n: -5 },
        { label: '@SUM(1)', n: 1 },
      ],
    });
    const api = `/api/v1/workspaces/${workspaceId}`;
    const name = `cells${counter++}`;
    expect(
      (
        await t.request(`${api}/charts`, {
          method: 'POST',
          json: { name, title: 'Cells', sql: 'SELECT label, n FROM shared.cells ORDER BY n', chart_type: 'table', config: {} },
          token: owner.accessToken,
        })
      ).status,
    ).toBe(201);
    const { token } = await bodyOf(await t.request(`${api}/charts/${name}/publish`, { method: 'POST', json: {}, token: owner.accessToken }));
    expect(parseCsv(await (await t.request(`/c/${token}/data?format=csv`)).text())).toEqual([
      ['label', 'n'],
      ['\'=HYPERLINK("http://evil.example","x")', '-5'],
      ["'@SUM(1)", '1'],
    ]);
  });
});
