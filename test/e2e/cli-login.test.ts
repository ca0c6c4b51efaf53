import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import type { TestUser } from '../support/accounts';
import { withUser } from '../support/fixtures';

describe('CLI browser login', () => {
  let t: TestApp, user: TestUser;
  beforeAll(async () => ({ t, user } = await withUser('local', { label: 'cli' })));
  afterAll(() => t.stop());

  const state = 'state-0123456789abcdef';
  const submit = (fields: Record<string, string>) =>
    t.request('/api/v1/auth/cli-login', {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

  test('the form is HTML carrying the port and the state, escaped', async () => {
    const hostile = '"><script>alert(1)</script>xx';
    const response = await t.request(`/api/v1/auth/cli-login?callback_port=8765&state=${encodeURIComponent(hostile)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    expect(html).toContain('name="callback_port" value="8765"');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#34;&#62;&#60;script&#62;');
  });

  test.each([
    ['a port below 1024', 'callback_port=80&state=state-0123456789abcdef', ['query', 'callback_port']],
    ['a port above 65535', 'callback_port=70000&state=state-0123456789abcdef', ['query', 'callback_port']],
    ['no port', 'state=state-0123456789abcdef', ['query', 'callback_port']],
    ['a short state', 'callback_port=8765&state=short', ['query', 'state']],
    ['a state over 128 characters', `callback_port=8765&state=${'s'.repeat(129)}`, ['query', 'state']],
  ])('422 for %s', async (_, query, loc) => {
    const response = await t.request(`/api/v1/auth/cli-login?${query}`);
    expect(response.status).toBe(422);
    expect((await bodyOf(response)).detail[0].loc).toEqual(loc);
  });

  test('valid credentials create a CLI key and redirect to the local callback with the unchanged state', async () => {
    const response = await submit({ email: user.email, password: user.password, callback_port: '8765', state });
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location')!);
    expect(location.origin).toBe('http://127.0.0.1:8765');
    expect(location.pathname).toBe('/callback');
    expect(location.searchParams.get('state')).toBe(state);
    const key = location.searchParams.get('key')!;
    expect(key).toMatch(/^oxb_/);
    expect((await t.request('/api/v1/auth/session-token', { method: 'POST', headers: { 'x-api-key': key } })).status).toBe(200);
    const keys = await bodyOf(await t.request('/api/v1/auth/api-keys', { token: user.accessToken }));
    expect(keys[0].name).toStartWith('Oxbow CLI');
  });

  test('wrong credentials re-render the form with the message, and redirect nowhere', async () => {
    const response = await submit({ email: user.email, password: 'wrong password', callback_port: '8765', state });
    expect(response.status).toBe(200);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    expect(html).toContain('Incorrect e-mail or password');
    expect(html).toContain(`value="${state}"`);
  });

  test('a tampered form is refused with 422', async () => {
    expect((await submit({ email: user.email, password: user.password, callback_port: '22', state })).status).toBe(422);
    expect((await submit({ email: user.email, password: user.password, callback_port: '8765', state: 'short' })).status).toBe(422);
  });
});
