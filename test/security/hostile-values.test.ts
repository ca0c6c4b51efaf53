import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { TestUser } from '../support/accounts';
import { connectionsPath, createSourceDatabase, postgresSpec, type SourceDatabase } from '../support/connections';
import { inParallel, TenantSource } from '../support/egress-servers';
import { bodyOf } from '../support/http';
import { pushOk } from '../support/lake';
import type { TestApp } from '../support/test-app';
import { testEnv } from '../support/test-env';
import { withWorkspace } from '../support/fixtures';

/** What a tenant might type into any text field: quotes and statement text, URL and path pieces, host spellings, markers, odd Unicode, length. */
const hostile = [
  "us-east-1', ENDPOINT '127.0.0.1:1', USE_SSL 'false",
  'x y/#?@:[]',
  "'; DROP TABLE connections; --",
  '"double" \'single\' `back`',
  '\\',
  '../../../etc/passwd',
  '%00%2e%2e%2f',
  'http://[::1',
  'http://user:pass@127.0.0.1:1/x?y#z',
  '${jndi:ldap://x/a}',
  '{{p}}',
  '$1',
  'Host: evil\r\nX: y',
  'é€😀\u202e\u200b',
  'a'.repeat(5_000),
  '',
  ' ',
  '-1',
  '0x7f000001',
  '[::1]',
  '::ffff:127.0.0.1',
  'localhost',
  '/tmp',
  'host1,host2',
  '**/*',
  's3://another-bucket/x',
  'getvariable(x)',
];

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  patternProperties?: Record<string, Schema>;
  anyOf?: Schema[];
  enum?: unknown[];
};
type Path = (string | number)[];

/** Every place of a spec a string goes, as a path (the first item of an array; a made-up key of a map), from the type's JSON Schema. */
function stringPaths(schema: Schema, prefix: Path = []): { path: Path; key?: true }[] {
  if (schema.type === 'string' || schema.anyOf?.some((member) => member.type === 'string' || (member as { const?: unknown }).const !== undefined))
    return [{ path: prefix }];
  if (schema.type === 'array' && schema.items) return stringPaths(schema.items, [...prefix, 0]);
  if (schema.patternProperties) {
    const value = Object.values(schema.patternProperties)[0]!;
    return [{ path: [...prefix, 'X-Fuzz'], key: true }, ...stringPaths(value, [...prefix, 'X-Fuzz'])];
  }
  return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => stringPaths(property, [...prefix, name]));
}

function withValue(spec: unknown, path: Path, value: unknown, asKey = false): unknown {
  const copy = structuredClone(spec) as Record<string | number, unknown>;
  let node: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    node[key] ??= typeof path[path.indexOf(key) + 1] === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  }
  const last = path.at(-1)!;
  if (asKey) node[value as string] = 'v';
  else node[last] = value;
  return copy;
}

/**
 * No value a tenant can type makes the service answer 5xx: every hostile text in every string field
 * of every connector type's spec (found from the type's own JSON Schema, so a new field is covered
 * the day it is added), then the test, streams and preview of what was accepted; saved queries whose
 * SQL puts placeholders where a value's type decides the statement's shape, run with hostile values;
 * charts over them, published and viewed.
 */
describe('hostile values never make a 5xx', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  let source: TenantSource;
  let database: SourceDatabase;
  const failures: string[] = [];

  beforeAll(async () => {
    source = new TenantSource();
    database = await createSourceDatabase();
    await database.sql`CREATE TABLE items (id integer PRIMARY KEY, note text)`;
    await database.sql`INSERT INTO items VALUES (1, 'one')`;
    const s3 = testEnv.s3();
    const client = new S3Client({
      region: s3.region,
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'hostile/items.csv', Body: 'id,note\n1,one\n' }));
    client.destroy();
    ({ t, user, workspaceId } = await withWorkspace('local', {
      env: { PUBLIC_VIEWS_PER_ADDRESS: '100000', PUBLIC_VIEWS_PER_LINK: '100000' },
      label: 'hostile',
      plan: 'enterprise',
    }));
  });
  afterAll(async () => {
    await t.stop();
    source.stop();
    await database.drop();
  });

  /** What the log says an internal error was, by the request id its answer quotes. */
  const causeOf = (body: string) => {
    const id = /request id ([0-9a-f-]{36})/.exec(body)?.[1];
    const line = id && t.logLines.find((candidate) => candidate.includes(id) && candidate.includes('internal error'));
    return line ? line.slice(line.indexOf('"cause"'), line.indexOf('"cause"') + 400) : body.slice(0, 300);
  };
  const call = async (what: string, method: string, path: string, json?: unknown) => {
    const response = await t.request(path, { method, json, token: user.accessToken });
    if (response.status >= 500) failures.push(`${what}: ${method} ${path} → ${response.status} ${causeOf(await response.clone().text())}`);
    return response;
  };

  test('every string field of every connector type’s spec, and what test, streams and preview make of it', async () => {
    const s3 = testEnv.s3();
    const base: Record<string, Record<string, unknown>> = {
      postgres: postgresSpec(database, { schemas: ['public'] }),
      http_json: {
        base_url: source.origin,
        headers: { 'X-Plain': 'yes' },
        auth_header: { name: 'Authorization', value: 'Bearer token' },
        pagination: { style: 'cursor', size_param: 'size', cursor_path: 'next' },
        streams: [{ name: 'items', path: 'items', records_path: '', primary_key: ['id'], cursor_field: 'id' }],
      },
      s3_files: {
        bucket: s3.bucket,
        region: s3.region,
        endpoint: s3.endpoint,
        url_style: 'path',
        access_key_id: s3.accessKeyId,
        secret_access_key: s3.secretAccessKey,
        streams: [{ name: 'items', glob: 'hostile/*.csv', format: 'csv', primary_key: ['id'] }],
      },
      hubspot: { objects: ['contacts'] },
      salesforce: { objects: ['Account'], api_version: '59.0' },
    };
    const types = (await bodyOf(await call('types', 'GET', '/api/v1/connections/available-types'))) as { type: string; spec_schema: Schema }[];
    expect(types.map((type) => type.type).sort()).toEqual(Object.keys(base).sort());
    const cases = types.flatMap(({ type, spec_schema }) =>
      stringPaths(spec_schema).flatMap(({ path, key }) => hostile.map((value) => ({ type, path, key, value, spec: withValue(base[type], path, value, key) }))),
    );
    // The connection's own fields too.
    cases.push(...hostile.map((value) => ({ type: 'http_json', path: ['(name)'], key: undefined, value, spec: base.http_json! })));
    let counter = 0;
    await inParallel(cases, 6, async ({ type, path, key, value, spec }) => {
      const what = `${type} ${key ? 'key at ' : ''}${path.join('.')} = ${JSON.stringify(value.slice(0, 60))}`;
      const name = path[0] === '(name)' ? value : `c${++counter}`;
      const created = await call(what, 'POST', connectionsPath(workspaceId), {
        name,
        connector_type: type,
        spec,
        sync_schedule: path[0] === '(name)' ? value : null,
      });
      if (created.status !== 201) return;
      const { id } = await bodyOf(created);
      const at = `${connectionsPath(workspaceId)}/${id}`;
      await Promise.all([
        call(what, 'POST', `${at}/test`),
        call(what, 'GET', `${at}/streams`),
        call(what, 'POST', `${at}/preview`, { stream: 'items', limit: 5 }),
        call(what, 'POST', `${at}/preview`, { stream: value.slice(0, 200), limit: 5 }),
        call(what, 'PATCH', at, { spec: withValue({}, path, value, key) }),
      ]);
      await call(what, 'DELETE', at);
    });
    expect(failures).toEqual([]);
  }, 600_000);

  test('saved queries whose placeholders meet hostile values, and charts over them', async () => {
    await pushOk(t, workspaceId, user, { table: 'data.t', records: [{ id: 1, name: 'a', at: '2024-01-01T00:00:00Z' }] });
    const statements = [
      'SELECT getvariable({{p}})',
      'SELECT getvariable({{p}}) AS v FROM data.t',
      "SELECT struct_extract({'a': 1}, {{p}})",
      'SELECT json_extract(\'{"a": 1}\', {{p}})',
      'SELECT current_setting({{p}})',
      'SELECT * FROM range({{p}})',
      "SELECT repeat('x', {{p}})",
      'SELECT {{p}} LIMIT {{p}}',
      'SELECT 1 OFFSET {{p}}',
      'SELECT 1 AS a ORDER BY {{p}}',
      'SELECT list_value(1, 2)[{{p}}]',
      'SELECT format({{p}}, 1)',
      'SELECT printf({{p}})',
      'SELECT strftime(now(), {{p}})',
      "SELECT regexp_matches('a', {{p}})",
      'SELECT * FROM data.t WHERE name = {{p}} OR id = {{p}}',
      'SELECT typeof({{p}}), {{p}}::VARCHAR',
      'SELECT {{p}} + 1',
      "SELECT date_trunc({{p}}, TIMESTAMP '2024-01-01')",
      'SELECT * FROM generate_series(1, {{p}})',
      'SELECT {{p}} FROM data.t GROUP BY ALL',
      'SELECT CAST({{p}} AS INTEGER)',
      'SELECT {{p}} -- {{p}}',
      "SELECT '{{p}}', {{p}}",
      'SELECT * FROM {{p}}',
      'SELECT {{p}}{{p}}',
      'SELECT $1 + {{p}}',
    ];
    const types = ['string', 'integer', 'number', 'boolean', 'date', 'timestamp', 'enum'] as const;
    const values: Record<(typeof types)[number], unknown[]> = {
      string: hostile.slice(0, 14),
      integer: [-9223372036854775808, '9223372036854775807', '-9223372036854775809', 1e308, -1, 0, '1e3', 'x'],
      number: [1e308, -1e308, '1e400', 'NaN', '-Infinity', -0.0, 'x'],
      boolean: [true, 'true', 1, null],
      date: ['0001-01-01', '9999-12-31', '2024-02-30', '-0044-03-15', 'x'],
      timestamp: ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999999999+14:00', '2024-01-01 00:00', 'x'],
      enum: ['a', "'", 'x'],
    };
    let counter = 0;
    const api = `/api/v1/workspaces/${workspaceId}`;
    const cases = statements.flatMap((sql) => types.map((type) => ({ sql, type })));
    await inParallel(cases, 4, async ({ sql, type }) => {
      const what = `${type}: ${sql}`;
      const name = `q${++counter}`;
      const parameter = { name: 'p', type, required: false, ...(type === 'enum' ? { options: ['a', "'", ''] } : {}) };
      const created = await call(what, 'POST', `${api}/saved-queries`, { name, sql, parameters: [parameter] });
      if (created.status !== 201) return;
      for (const value of values[type]) {
        await call(`${what} with ${JSON.stringify(value)}`, 'POST', `${api}/saved-queries/${name}/run`, { parameters: { p: value } });
      }
      const chart = await call(what, 'POST', `${api}/charts`, {
        name: `c${name}`,
        title: 'x',
        saved_query: name,
        parameters: { p: values[type][0] },
        chart_type: 'table',
        config: {},
      });
      if (chart.status !== 201) return;
      const published = await call(what, 'POST', `${api}/charts/c${name}/publish`, { parameters: { p: values[type].at(-1) } });
      if (published.status === 201) {
        const { token } = await bodyOf(published);
        for (const path of [`/c/${token}`, `/c/${token}/data`, `/c/${token}/data?format=csv`]) {
          const response = await t.request(path);
          if (response.status >= 500 && response.status !== 503) failures.push(`${what}: GET ${path} → ${response.status}`);
        }
      }
    });
    expect(failures).toEqual([]);
  }, 600_000);
});
