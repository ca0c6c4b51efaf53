import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import { createVerifiedUser, type TestUser } from '../support/accounts';

/**
 * The console's sessions: the refresh token only ever in an HttpOnly, SameSite=Strict cookie scoped
 * to the console's session endpoints, the access token in the answer; requests from another site's
 * page refused; logout and logout everywhere.
 */
describe('console sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('local');
  });
  afterAll(() => t.stop());

  const consoleHeaders = { 'x-oxbow-console': '1' };
  const call = (path: string, init: { json?: unknown; cookie?: string; headers?: Record<string, string> } = {}) =>
    t.request(`/api/v1/auth/console/${path}`, {
      method: 'POST',
      json: init.json,
      headers: { ...consoleHeaders, ...(init.cookie ? { cookie: init.cookie } : {}), ...init.headers },
    });
  const cookieOf = (response: Response) => response.headers.get('set-cookie') ?? '';
  const tokenIn = (setCookie: string) => /^oxbow_console_refresh=([^;]*)/.exec(setCookie)?.[1] ?? '';
  const codeOf = async (response: Response) => (await bodyOf(response)).detail.error.code;
  const logIn = async (user: TestUser) => {
    const response = await call('login', { json: { email: user.email, password: user.password } });
    expect(response.status).toBe(200);
    return { body: await bodyOf(response), cookie: `oxbow_console_refresh=${tokenIn(cookieOf(response))}`, setCookie: cookieOf(response) };
  };

  test('login answers an access token and keeps the refresh token in a cookie no script can read', async () => {
    const user = await createVerifiedUser(t, 'console');
    const { body, setCookie } = await logIn(user);
    expect(body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: 900 });
    expect(setCookie).toMatch(/^oxbow_console_refresh=[A-Za-z0-9_-]{20,}; Path=\/api\/v1\/auth\/console; HttpOnly; SameSite=Strict; Max-Age=2592000$/);
    expect((await t.request('/api/v1/auth/me', { token: body.access_token })).status).toBe(200);
  });

  test('refresh rotates the cookie; a rotated cookie presented again ends the session and is cleared', async () => {
    const user = await createVerifiedUser(t, 'console');
    const first = await logIn(user);
    const renewed = await call('refresh', { cookie: first.cookie });
    expect(renewed.status).toBe(200);
    const next = tokenIn(cookieOf(renewed));
    expect(next).not.toBe(tokenIn(first.setCookie));
    expect((await t.request('/api/v1/auth/me', { token: (await bodyOf(renewed)).access_token })).status).toBe(200);

    const replayed = await call('refresh', { cookie: first.cookie });
    expect(replayed.status).toBe(401);
    expect(cookieOf(replayed)).toMatch(/^oxbow_console_refresh=; .*Max-Age=0$/);
    // Reuse revoked the whole family: the newest cookie stops working too.
    expect((await call('refresh', { cookie: `oxbow_console_refresh=${next}` })).status).toBe(401);
  });

  test('refresh without a cookie is 401 NOT_AUTHENTICATED', async () => {
    const response = await call('refresh');
    expect(response.status).toBe(401);
    expect(await codeOf(response)).toBe('NOT_AUTHENTICATED');
  });

  test('another site cannot use the cookie: no console header is 422, a foreign Origin or Sec-Fetch-Site is 403', async () => {
    const user = await createVerifiedUser(t, 'console');
    const { cookie } = await logIn(user);
    const bare = await t.request('/api/v1/auth/console/refresh', { method: 'POST', headers: { cookie } });
    expect(bare.status).toBe(422);
    expect((await bodyOf(bare)).detail[0].loc).toEqual(['header', 'x-oxbow-console']);
    const foreign: Record<string, string>[] = [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }];
    for (const headers of foreign) {
      for (const path of ['refresh', 'logout', 'login']) {
        const refused = await call(path, { cookie, headers, json: path === 'login' ? { email: user.email, password: user.password } : undefined });
        expect(refused.status).toBe(403);
        expect(await codeOf(refused)).toBe('ORIGIN_NOT_ALLOWED');
        expect(refused.headers.get('set-cookie')).toBeNull();
      }
    }
    // The service's own origin and a same-origin fetch pass.
    expect((await call('refresh', { cookie, headers: { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
  });

  test('over HTTPS the cookie is Secure', async () => {
    const user = await createVerifiedUser(t, 'console');
    const response = await t.app.handle(
      new Request('https://localhost/api/v1/auth/console/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...consoleHeaders },
        body: JSON.stringify({ email: user.email, password: user.password }),
      }),
    );
    expect(response.status).toBe(200);
    expect(cookieOf(response)).toMatch(/; HttpOnly; SameSite=Strict; Secure; Max-Age=2592000$/);
  });

  test('logout ends the session and clears the cookie', async () => {
    const user = await createVerifiedUser(t, 'console');
    const { cookie } = await logIn(user);
    const out = await call('logout', { cookie });
    expect(out.status).toBe(204);
    expect(cookieOf(out)).toMatch(/^oxbow_console_refresh=; Path=\/api\/v1\/auth\/console; HttpOnly; SameSite=Strict; Max-Age=0$/);
    expect((await call('refresh', { cookie })).status).toBe(401);
    // Without a cookie, logout still answers (and clears).
    expect((await call('logout')).status).toBe(204);
  });

  test('logout everywhere ends every session and every access token, and leaves API keys working', async () => {
    const user = await createVerifiedUser(t, 'console');
    const browser = await logIn(user);
    const key = await bodyOf(await t.request('/api/v1/auth/api-keys', { method: 'POST', json: { name: 'stays' }, token: user.accessToken }));
    const out = await t.request('/api/v1/auth/logout-everywhere', { method: 'POST', token: browser.body.access_token });
    expect(out.status).toBe(204);
    expect((await t.request('/api/v1/auth/me', { token: browser.body.access_token })).status).toBe(401);
    expect((await t.request('/api/v1/auth/me', { token: user.accessToken })).status).toBe(401);
    expect((await call('refresh', { cookie: browser.cookie })).status).toBe(401);
    expect((await t.request('/api/v1/auth/refresh', { method: 'POST', json: { refresh_token: user.refreshToken } })).status).toBe(401);
    const exchanged = await t.request('/api/v1/auth/session-token', { method: 'POST', headers: { 'x-api-key': key.key } });
    expect(exchanged.status).toBe(200);
    expect((await t.request('/api/v1/auth/me', { token: (await bodyOf(exchanged)).access_token })).status).toBe(200);
    // A new login works as before.
    expect((await logIn(user)).body.access_token).toEqual(expect.any(String));
  });

  test('a wrong password is 401 and sets no cookie', async () => {
    const user = await createVerifiedUser(t, 'console');
    const response = await call('login', { json: { email: user.email, password: 'not the password' } });
    expect(response.status).toBe(401);
    expect(await codeOf(response)).toBe('INVALID_CREDENTIALS');
    expect(response.headers.get('set-cookie')).toBeNull();
  });
});
