import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import type { TestUser } from '../support/accounts';
import { columnsOf, pushOk, query } from '../support/lake';
import { maxJsonDepth } from '../../src/api/request-body/json-input';
import { withWorkspace } from '../support/fixtures';

/** Names every plain JavaScript object answers to through its prototype. */
const prototypeNames = [
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  '__defineGetter__',
  'propertyIsEnumerable',
  'toLocaleString',
];

/**
 * Input the interface must refuse or keep exactly, never crash on: a 422 pointing at the value (or a
 * 413) in the documented shape, and nothing written.
 */
describe('pushed input', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  beforeAll(async () => ({ t, user, workspaceId } = await withWorkspace('local', { label: 'inputs', plan: 'business' })));
  afterAll(() => t.stop());

  /** Sends raw JSON text: what JSON.stringify cannot produce (1e400, lone surrogates in keys, 100,000 levels). */
  const pushText = (text: string, token = user.accessToken) =>
    t.request(`/api/v1/workspaces/${workspaceId}/push`, {
      method: 'POST',
      body: text,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    });
  const tableNames = async () =>
    (await bodyOf(await t.request(`/api/v1/workspaces/${workspaceId}/query/tables`, { token: user.accessToken }))).tables.map(
      (entry: { schema_name: string; name: string }) => `${entry.schema_name}.${entry.name}`,
    );
  const expect422 = async (response: Response, loc: (string | number)[], type: string) => {
    expect(response.status).toBe(422);
    const body = await bodyOf(response);
    expect(body.detail).toContainEqual({ loc, msg: expect.any(String), type });
    return body;
  };

  describe('field and key names that are JavaScript prototype members are ordinary columns', () => {
    test.each(prototypeNames)('a field named %s is stored, described and read back', async (name) => {
      const table = `proto.f_${name.replace(/[^a-z]/gi, '').toLowerCase()}`;
      await pushOk(t, workspaceId, user, { table, records: JSON.parse(`[{"${name}": 1, "other": "a"}, {"${name}": 2}]`) });
      expect(Object.keys(await columnsOf(t, workspaceId, table, user))).toEqual([name, 'other']);
      const rows = await query(t, workspaceId, `SELECT "${name}" AS v FROM ${table} ORDER BY 1`);
      expect(rows.map((row) => row.v)).toEqual([1, 2]);
      const objects = await bodyOf(
        await t.request(`/api/v1/workspaces/${workspaceId}/query`, {
          method: 'POST',
          json: { sql: `SELECT * FROM ${table} ORDER BY 1`, format: 'objects' },
          token: user.accessToken,
        }),
      );
      expect(JSON.stringify(objects.data)).toBe(`[{"${name}":1,"other":"a"},{"${name}":2,"other":null}]`);
    });

    test.each(prototypeNames)('primary_key ["%s"] upserts on that column', async (name) => {
      const table = `proto.k_${name.replace(/[^a-z]/gi, '').toLowerCase()}`;
      const records = (value: string) => JSON.parse(`[{"${name}": 1, "v": "${value}"}, {"${name}": 2, "v": "${value}"}]`);
      await pushOk(t, workspaceId, user, { table, records: records('first'), primary_key: [name] });
      await pushOk(t, workspaceId, user, { table, records: records('second').slice(0, 1), primary_key: [name] });
      expect(await query(t, workspaceId, `SELECT "${name}" AS k, v FROM ${table} ORDER BY 1`)).toEqual([
        { k: 1, v: 'second' },
        { k: 2, v: 'first' },
      ]);
    });

    test.each(prototypeNames)('primary_key ["%s"] that no record carries is a 422 at each record', async (name) => {
      const response = await pushText(JSON.stringify({ table: 'proto.missing_key', records: [{ id: 1 }, { id: 2 }], primary_key: [name] }));
      const body = await expect422(response, ['body', 'records', 0, name], 'missing');
      expect(body.detail).toContainEqual({ loc: ['body', 'records', 1, name], msg: expect.any(String), type: 'missing' });
    });

    test('a push without primary_key into a table keyed on "constructor" uses that key', async () => {
      await pushOk(t, workspaceId, user, { table: 'proto.inherited', records: [{ constructor: 'a', n: 1 }], primary_key: ['constructor'] });
      await pushOk(t, workspaceId, user, { table: 'proto.inherited', records: [{ constructor: 'a', n: 2 }] });
      await expect422(await pushText(JSON.stringify({ table: 'proto.inherited', records: [{ n: 3 }] })), ['body', 'records', 0, 'constructor'], 'missing');
      expect(await query(t, workspaceId, 'SELECT n FROM proto.inherited')).toEqual([{ n: 2 }]);
    });
  });

  describe('namespaces that would collide with the engine’s own catalogs and schemas', () => {
    test.each(['lake', 'LAKE', 'Lake', 'memory', 'system', 'temp', 'information_schema', 'pg_catalog', '__ducklake_metadata_lake', '__anything'])(
      'push into %s.t is a 422 at table',
      async (namespace) => {
        const response = await pushText(JSON.stringify({ table: `${namespace}.t`, records: [{ a: 1 }] }));
        await expect422(response, ['body', 'table'], 'value_error');
      },
    );

    test('the table endpoints refuse them too, and nothing was created', async () => {
      const metadata = await t.request(`/api/v1/workspaces/${workspaceId}/query/tables/lake.t/metadata`, { token: user.accessToken });
      await expect422(metadata, ['path', 'table_name'], 'value_error');
      const drop = await t.request(`/api/v1/query/tables/lake/t?workspace=${workspaceId}`, { method: 'DELETE', token: user.accessToken });
      await expect422(drop, ['path', 'table_name'], 'value_error');
      const reserved = /^(lake|memory|system|temp|information_schema|pg_catalog|__.*)\./;
      expect((await tableNames()).filter((name: string) => reserved.test(name))).toEqual([]);
    });

    test('a table named like a catalog inside an ordinary namespace is fine', async () => {
      await pushOk(t, workspaceId, user, { table: 'raw.lake', records: [{ a: 1 }] });
      expect(await query(t, workspaceId, 'SELECT a FROM raw.lake')).toEqual([{ a: 1 }]);
    });
  });

  describe('lone surrogates', () => {
    test.each([
      ['a value of the first record', '{"table":"s.v1","records":[{"a":"\\ud800"}]}', ['body', 'records', 0, 'a']],
      ['a trailing surrogate in the third record', '{"table":"s.v2","records":[{"a":"x"},{"a":"y"},{"a":"ok\\udfff"}]}', ['body', 'records', 2, 'a']],
      ['a value inside a nested array', '{"table":"s.v3","records":[{"a":{"list":["fine","\\udbff tail"]}}]}', ['body', 'records', 0, 'a', 'list', 1]],
      ['the table name', '{"table":"s.\\ud83d","records":[{"a":1}]}', ['body', 'table']],
      ['a primary key entry', '{"table":"s.v4","records":[{"a":1}],"primary_key":["\\ud800"]}', ['body', 'primary_key', 0]],
    ])('in %s: 422 naming it', async (_, text, loc) => {
      await expect422(await pushText(text), loc as (string | number)[], 'string_unicode');
    });

    test.each([
      ['of the first record', '{"table":"s.k1","records":[{"\\ud800":1}]}', ['body', 'records', 0]],
      ['of the second record, beside good fields', '{"table":"s.k2","records":[{"a":1},{"a":2,"b\\udc00":3}]}', ['body', 'records', 1]],
      ['inside a nested object', '{"table":"s.k3","records":[{"a":{"\\ud800x":1}}]}', ['body', 'records', 0, 'a']],
    ])('in a field name %s: 422 at the record, the name escaped in the message', async (_, text, loc) => {
      const body = await expect422(await pushText(text), loc as (string | number)[], 'string_unicode');
      expect(body.detail[0].msg).toContain('\\u');
      expect(JSON.stringify(body)).toBe(JSON.stringify(body).toWellFormed());
    });

    test('a pair of surrogates (an emoji) is a valid character and is kept', async () => {
      await pushOk(t, workspaceId, user, JSON.parse('{"table":"s.emoji","records":[{"a":"\\ud83e\\udd86"}]}'));
      expect(await query(t, workspaceId, 'SELECT a FROM s.emoji')).toEqual([{ a: '🦆' }]);
    });
  });

  describe('numbers beyond a double', () => {
    test.each([
      ['1e400', '{"table":"n.a","records":[{"x":1e400}]}', ['body', 'records', 0, 'x']],
      ['-1e400', '{"table":"n.b","records":[{"x":1},{"x":-1e400}]}', ['body', 'records', 1, 'x']],
      ['1e309 inside a nested value', '{"table":"n.c","records":[{"x":{"y":[1,1e309]}}]}', ['body', 'records', 0, 'x', 'y', 1]],
      ['a 400-digit integer', `{"table":"n.d","records":[{"x":${'9'.repeat(400)}}]}`, ['body', 'records', 0, 'x']],
    ])('%s is a 422 at the value, not a NULL', async (_, text, loc) => {
      await expect422(await pushText(text), loc as (string | number)[], 'finite_number');
    });

    test('the largest double and the smallest subnormal are kept', async () => {
      await pushOk(t, workspaceId, user, JSON.parse('{"table":"n.edge","records":[{"x":1.7976931348623157e308},{"x":5e-324},{"x":1e-400}]}'));
      expect((await query(t, workspaceId, 'SELECT x FROM n.edge')).map((row) => row.x)).toEqual([1.7976931348623157e308, 5e-324, 0]);
    });
  });

  describe('nesting depth', () => {
    const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}${close.repeat(depth)}`;
    const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

    test.each([
      ['100,000 arrays in a value', `{"table":"d.a","records":[{"v":${nested(100_000)}}]}`],
      ['100,000 objects in a value', `{"table":"d.b","records":[{"v":${nestedObject(100_000)}}]}`],
      ['arrays as the records themselves', `{"table":"d.c","records":${nested(100_000)}}`],
      ['one level past the limit', `{"table":"d.d","records":[{"v":${nested(maxJsonDepth - 2)}}]}`],
    ])('%s: 422 json_too_deep', async (_, text) => {
      const response = await pushText(text);
      expect(response.status).toBe(422);
      const body = await bodyOf(response);
      expect(body.detail[0]).toMatchObject({ type: 'json_too_deep', loc: expect.arrayContaining(['body']) });
    });

    test('a value nested to the limit is stored as JSON and read back', async () => {
      const depth = maxJsonDepth - 3;
      await pushOk(t, workspaceId, user, JSON.parse(`{"table":"d.ok","records":[{"v":${nested(depth)}}]}`));
      const rows = await query(t, workspaceId, 'SELECT v FROM d.ok');
      expect(JSON.stringify(rows[0]!.v)).toBe(nested(depth));
    });

    test.each([
      ['/auth/signup', '/api/v1/auth/signup', undefined],
      ['/query', '/api/v1/query', true],
      ['/workspaces', '/api/v1/workspaces', true],
    ])('a deep body on %s is a 422 too', async (_, path, authenticated) => {
      const response = await t.request(path, {
        method: 'POST',
        body: `{"name":${nested(100_000)},"sql":${nested(100_000)},"email":"a@b.test"}`,
        headers: { 'content-type': 'application/json', ...(authenticated ? { authorization: `Bearer ${user.accessToken}` } : {}) },
      });
      expect(response.status).toBe(422);
      expect((await bodyOf(response)).detail[0].type).toBe('json_too_deep');
    });
  });

  describe('the same checks guard every endpoint', () => {
    test.each([
      [
        'a lone surrogate in a sign-up name',
        '/api/v1/auth/signup',
        '{"email":"x@y.test","password":"long enough password","name":"\\ud800"}',
        ['body', 'name'],
        'string_unicode',
        false,
      ],
      ['a lone surrogate in a workspace name', '/api/v1/workspaces', '{"name":"\\udfff","slug":"surrogate-ws"}', ['body', 'name'], 'string_unicode', true],
      ['a lone surrogate in SQL', '/api/v1/query', '{"sql":"SELECT \'\\ud800\'"}', ['body', 'sql'], 'string_unicode', true],
      [
        '1e400 as a job priority',
        '/api/v1/query/jobs',
        `{"sql":"SELECT 1","workspace_id":"00000000-0000-7000-8000-000000000000","priority":1e400}`,
        ['body', 'priority'],
        'finite_number',
        true,
      ],
    ])('%s is a 422 naming it', async (_, path, text, loc, type, authenticated) => {
      const response = await t.request(path as string, {
        method: 'POST',
        body: text as string,
        headers: { 'content-type': 'application/json', ...(authenticated ? { authorization: `Bearer ${user.accessToken}` } : {}) },
      });
      await expect422(response, loc as (string | number)[], type as string);
    });

    test('invalid UTF-8 is a 422, not a silent replacement character', async () => {
      const bytes = new Uint8Array([...new TextEncoder().encode('{"table":"u.x","records":[{"a":"'), 0xff, 0xfe, ...new TextEncoder().encode('"}]}')]);
      const response = await t.request(`/api/v1/workspaces/${workspaceId}/push`, {
        method: 'POST',
        body: bytes,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${user.accessToken}` },
      });
      await expect422(response, ['body'], 'json_invalid');
    });

    test('a body that starts with a UTF-8 byte-order mark is read as the JSON after it', async () => {
      const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"table":"u.ok_bom","records":[{"a":"é"}]}')]);
      const response = await t.request(`/api/v1/workspaces/${workspaceId}/push`, {
        method: 'POST',
        body: bytes,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${user.accessToken}` },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ records_written: 1, table: 'u.ok_bom' });
    });

    test('a body of a type no route takes is a 422 naming the type', async () => {
      const response = await t.request(`/api/v1/workspaces/${workspaceId}/push`, {
        method: 'POST',
        body: '<records><a>1</a></records>',
        headers: { 'content-type': 'application/xml', authorization: `Bearer ${user.accessToken}` },
      });
      expect(response.status).toBe(422);
      expect((await bodyOf(response)).detail[0].msg).toContain('application/xml');
    });
  });

  test('no refused push left a table behind', async () => {
    const leftovers = (await tableNames()).filter((name: string) => /^(s|n|d|u)\.(?!emoji|edge|ok)/.test(name));
    expect(leftovers).toEqual([]);
  });
});

describe('list offsets and limits', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  beforeAll(async () => {
    ({ t, user, workspaceId } = await withWorkspace('local', { label: 'pages' }));
    expect((await t.request('/api/v1/auth/api-keys', { method: 'POST', json: { name: 'one' }, token: user.accessToken })).status).toBe(201);
  });
  afterAll(() => t.stop());

  const paths = () => ['/api/v1/auth/api-keys', `/api/v1/workspaces/${workspaceId}/members`];

  test.each(['9223372036854775808', '18446744073709551616', '1e30', String(2 ** 53), '99999999999999999999999999'])(
    'offset %s is a 422 at offset',
    async (offset) => {
      for (const path of paths()) {
        const response = await t.request(`${path}?offset=${offset}`, { token: user.accessToken });
        expect(response.status).toBe(422);
        expect((await bodyOf(response)).detail[0].loc).toEqual(['query', 'offset']);
      }
    },
  );

  test.each(['1.5', '-0.5', 'NaN', 'Infinity', '0x10', ' 1', ''])('a non-integer offset %p is a 422', async (offset) => {
    for (const path of paths()) {
      const response = await t.request(`${path}?offset=${encodeURIComponent(offset)}`, { token: user.accessToken });
      expect(response.status).toBe(422);
    }
  });

  test('the largest documented offset answers an empty page', async () => {
    for (const path of paths()) {
      const response = await t.request(`${path}?offset=${Number.MAX_SAFE_INTEGER}&limit=200`, { token: user.accessToken });
      expect(response.status).toBe(200);
      expect(await bodyOf(response)).toEqual([]);
      expect(Number(response.headers.get('x-total-count'))).toBeGreaterThan(0);
    }
  });

  test('a job page offset beyond the maximum is a 422, at the maximum it is an empty page', async () => {
    const response = await t.request(`/api/v1/query/jobs/00000000-0000-7000-8000-000000000000?offset=9223372036854775808`, { token: user.accessToken });
    expect(response.status).toBe(422);
    expect((await bodyOf(response)).detail[0].loc).toEqual(['query', 'offset']);
  });
});
