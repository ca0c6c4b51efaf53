import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../support/backends';
import type { TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import type { TestUser } from '../support/accounts';
import { withWorkspace } from '../support/fixtures';

/**
 * Text the stores cannot keep never reaches them: Postgres refuses NUL in text (a 500 before these
 * checks), and lengths are counted in characters, as the document's JSON Schema counts them.
 */
describe.each(backends)('text inputs on %s', (backend) => {
  let t: TestApp, user: TestUser, workspaceId: string;
  beforeAll(async () => ({ t, user, workspaceId } = await withWorkspace(backend, { label: 'texts' })));
  afterAll(() => t.stop());

  const send = (method: string, path: string, body?: string, contentType = 'application/json', authenticated = true) =>
    t.request(path, {
      method,
      ...(body === undefined ? {} : { body }),
      headers: { 'content-type': contentType, ...(authenticated ? { authorization: `Bearer ${user.accessToken}` } : {}) },
    });
  const expect422 = async (response: Response, loc: (string | number)[], type: string) => {
    expect(response.status).toBe(422);
    expect((await bodyOf(response)).detail).toContainEqual({ loc, msg: expect.any(String), type });
  };

  test.each([
    ['a sign-up name', 'POST', '/api/v1/auth/signup', '{"email":"nul@x.test","password":"long enough password","name":"a\\u0000b"}', ['body', 'name'], false],
    ['a workspace name', 'POST', '/api/v1/workspaces', '{"name":"a\\u0000b","slug":"nul-name"}', ['body', 'name'], true],
    ['an API key name', 'POST', '/api/v1/auth/api-keys', '{"name":"key\\u0000"}', ['body', 'name'], true],
    ['a job’s SQL', 'POST', '/api/v1/query/jobs', '{"sql":"SELECT 1 -- \\u0000","workspace_id":"00000000-0000-7000-8000-000000000000"}', ['body', 'sql'], true],
    ['a login e-mail', 'POST', '/api/v1/auth/login', '{"email":"a\\u0000@x.test","password":"x"}', ['body', 'email'], false],
    ['a pushed value', 'POST', '/PUSH', '{"table":"t.nul","records":[{"a":"x\\u0000y"}]}', ['body', 'records', 0, 'a'], true],
  ])('NUL in %s is a 422 at the field', async (_, method, path, body, loc, authenticated) => {
    const target = path === '/PUSH' ? `/api/v1/workspaces/${workspaceId}/push` : path;
    await expect422(
      await send(method as string, target, body as string, 'application/json', authenticated as boolean),
      loc as (string | number)[],
      'string_nul',
    );
  });

  test('NUL in a field name is a 422 at its record, the name escaped', async () => {
    const response = await send('POST', `/api/v1/workspaces/${workspaceId}/push`, '{"table":"t.nul_key","records":[{"ok":1},{"b\\u0000":1}]}');
    expect(response.status).toBe(422);
    const issue = (await bodyOf(response)).detail[0];
    expect(issue).toMatchObject({ loc: ['body', 'records', 1], type: 'string_nul' });
    expect(issue.msg).toContain('\\u0000');
  });

  test.each([
    ['a query parameter', () => `/api/v1/query/tables?workspace=a%00b`, ['query', 'workspace']],
    ['a path parameter', () => `/api/v1/workspaces/${workspaceId}/query/tables/a%00b/metadata`, ['path', 'table_name']],
  ])('%s is checked like a body’s text', async (_, path, loc) => {
    const response = await send('GET', path());
    expect(response.status).toBe(422);
    expect((await bodyOf(response)).detail[0].loc).toEqual(loc);
  });

  test('an escape that is no UTF-8 (a surrogate’s bytes) names no workspace: 403, never a 500', async () => {
    for (const escape of ['%ED%A0%80', '%FF', '%C0%80']) {
      const response = await send('GET', `/api/v1/query/tables?workspace=${escape}`);
      expect(response.status).toBe(403);
      expect((await bodyOf(response)).detail.error.code).toBe('WORKSPACE_ACCESS_DENIED');
    }
  });

  test('a NUL in a form field of the CLI login is a 422', async () => {
    const form = new URLSearchParams({ email: 'a@b.test', password: 'x\u0000', callback_port: '4000', state: 'a'.repeat(16) });
    await expect422(
      await send('POST', '/api/v1/auth/cli-login', form.toString(), 'application/x-www-form-urlencoded', false),
      ['body', 'password'],
      'string_nul',
    );
  });

  test('lengths count characters: 200 emoji are a valid workspace name, 201 are not; 15 are too few for a state', async () => {
    const ok = await send('POST', '/api/v1/workspaces', JSON.stringify({ name: '🦆'.repeat(200), slug: `emoji-${backend}` }));
    expect(ok.status).toBe(201);
    expect((await bodyOf(ok)).name).toBe('🦆'.repeat(200));
    await expect422(
      await send('POST', '/api/v1/workspaces', JSON.stringify({ name: '🦆'.repeat(201), slug: `emoji-more-${backend}` })),
      ['body', 'name'],
      'string_too_long',
    );
    const state = '🦆'.repeat(15);
    await expect422(
      await send('GET', `/api/v1/auth/cli-login?callback_port=4000&state=${encodeURIComponent(state)}`, undefined, 'application/json', false),
      ['query', 'state'],
      'string_too_short',
    );
    const form = new URLSearchParams({ email: 'a@b.test', password: 'x', callback_port: '4000', state });
    await expect422(
      await send('POST', '/api/v1/auth/cli-login', form.toString(), 'application/x-www-form-urlencoded', false),
      ['body', 'state'],
      'string_too_short',
    );
  });

  test('an e-mail address with the characters RFC 5322 allows is accepted', async () => {
    for (const email of ["o'neil+tag@example.test", 'a{b}$c|d@sub.example.test', '`~^=?#!%&*/@example.test']) {
      const response = await send('POST', '/api/v1/auth/forgot-password', JSON.stringify({ email }), 'application/json', false);
      expect(response.status).toBe(200);
    }
  });
});
