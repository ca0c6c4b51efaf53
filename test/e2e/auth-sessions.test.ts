import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import { createVerifiedUser } from '../support/accounts';

describe('sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('local', { env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => t.stop());

  const post = (path: string, json?: unknown, token?: string) => t.request(`/api/v1/auth/${path}`, { method: 'POST', json, token });
  const codeOf = async (response: Response) => (await bodyOf(response)).detail.error.code;

  test('login returns a bearer token pair whose access token opens /auth/me', async () => {
    const user = await createVerifiedUser(t);
    const pair = await bodyOf(await post('login', { email: user.email, password: user.password }));
    expect(pair).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String), token_type: 'bearer', expires_in: 900 });
    const me = await t.request('/api/v1/auth/me', { token: pair.access_token });
    expect(await bodyOf(me)).toMatchObject({ email: user.email, email_verified: true, pending_email: null });
  });

  test('a wrong password and an unknown account both get 401 INVALID_CREDENTIALS', async () => {
    const user = await createVerifiedUser(t);
    const wrong = await post('login', { email: user.email, password: 'not the password' });
    const unknown = await post('login', { email: 'nobody@example.test', password: 'not the password' });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(await bodyOf(wrong)).toEqual(await bodyOf(unknown));
  });

  test('refresh rotates: the new pair works, the old refresh token does not', async () => {
    const user = await createVerifiedUser(t);
    const rotated = await post('refresh', { refresh_token: user.refreshToken });
    expect(rotated.status).toBe(200);
    const pair = await bodyOf(rotated);
    expect(pair.refresh_token).not.toBe(user.refreshToken);
    expect((await t.request('/api/v1/auth/me', { token: pair.access_token })).status).toBe(200);
    expect((await post('refresh', { refresh_token: pair.refresh_token })).status).toBe(200);
  });

  test('reusing a rotated refresh token revokes the whole family', async () => {
    const user = await createVerifiedUser(t);
    const second = await bodyOf(await post('refresh', { refresh_token: user.refreshToken }));
    const reuse = await post('refresh', { refresh_token: user.refreshToken });
    expect(reuse.status).toBe(401);
    expect(await codeOf(reuse)).toBe('INVALID_TOKEN');
    // The legitimate holder's newer token is gone too: the leak ended the session.
    expect((await post('refresh', { refresh_token: second.refresh_token })).status).toBe(401);
  });

  test('logout ends the session: its refresh token no longer refreshes; a second logout is still 204', async () => {
    const user = await createVerifiedUser(t);
    expect((await post('logout', { refresh_token: user.refreshToken })).status).toBe(204);
    expect((await post('refresh', { refresh_token: user.refreshToken })).status).toBe(401);
    expect((await post('logout', { refresh_token: user.refreshToken })).status).toBe(204);
  });

  test('other sessions survive a logout', async () => {
    const user = await createVerifiedUser(t);
    const other = await bodyOf(await post('login', { email: user.email, password: user.password }));
    await post('logout', { refresh_token: user.refreshToken });
    expect((await post('refresh', { refresh_token: other.refresh_token })).status).toBe(200);
  });

  test('a refresh token expires after 30 days', async () => {
    const user = await createVerifiedUser(t);
    t.clock.advance(30 * 24 * 3_600_000 + 1_000);
    const response = await post('refresh', { refresh_token: user.refreshToken });
    expect(response.status).toBe(401);
    expect(await codeOf(response)).toBe('TOKEN_EXPIRED');
  });

  test('an access token expires after 15 minutes', async () => {
    const user = await createVerifiedUser(t);
    t.clock.advance(15 * 60_000 + 1_000);
    const response = await t.request('/api/v1/auth/me', { token: user.accessToken });
    expect(response.status).toBe(401);
    expect(await codeOf(response)).toBe('TOKEN_EXPIRED');
  });

  test.each([
    ['no credentials', undefined, 'NOT_AUTHENTICATED'],
    ['a malformed token', 'not.a.jwt', 'INVALID_TOKEN'],
    ['a token signed with another key', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4Iiwic2V2IjowLCJ0eXAiOiJhY2Nlc3MifQ.c2lnbmF0dXJl', 'INVALID_TOKEN'],
  ])('/auth/me with %s is 401 %s', async (_, token, code) => {
    const response = await t.request('/api/v1/auth/me', { token });
    expect(response.status).toBe(401);
    expect(await codeOf(response)).toBe(code);
  });

  test('422 for refresh and logout without a token', async () => {
    expect((await post('refresh', {})).status).toBe(422);
    expect((await post('logout', { refresh_token: 42 })).status).toBe(422);
  });

  test('login is throttled per account: the sixth failure in 15 minutes is 429 with Retry-After', async () => {
    const user = await createVerifiedUser(t);
    for (let i = 0; i < 5; i++) expect((await post('login', { email: user.email, password: `wrong ${i}` })).status).toBe(401);
    const limited = await post('login', { email: user.email, password: user.password });
    expect(limited.status).toBe(429);
    expect(await codeOf(limited)).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    t.clock.advance(15 * 60_000 + 1_000);
    expect((await post('login', { email: user.email, password: user.password })).status).toBe(200);
  });

  test('login is throttled per client address across accounts', async () => {
    const address = { 'x-forwarded-for': `203.0.113.${Math.floor(Math.random() * 200)}` };
    for (let i = 0; i < 30; i++) {
      await t.request('/api/v1/auth/login', { method: 'POST', json: { email: `spray-${i}@example.test`, password: 'guess' }, headers: address });
    }
    const user = await createVerifiedUser(t);
    const fromSameAddress = await t.request('/api/v1/auth/login', { method: 'POST', json: { email: user.email, password: user.password }, headers: address });
    expect(fromSameAddress.status).toBe(429);
    const fromElsewhere = await t.request('/api/v1/auth/login', {
      method: 'POST',
      json: { email: user.email, password: user.password },
      headers: { 'x-forwarded-for': '198.51.100.7' },
    });
    expect(fromElsewhere.status).toBe(200);
  });

  test('session-token trades a JWT or an API key for a fresh pair', async () => {
    const user = await createVerifiedUser(t);
    const viaJwt = await post('session-token', undefined, user.accessToken);
    expect(viaJwt.status).toBe(200);
    const key = (await bodyOf(await post('api-keys', { name: 'ci' }, user.accessToken))).key;
    for (const headers of [{ authorization: `Bearer ${key}` }, { 'x-api-key': key }] as Record<string, string>[]) {
      const viaKey = await t.request('/api/v1/auth/session-token', { method: 'POST', headers });
      expect(viaKey.status).toBe(200);
      const pair = await bodyOf(viaKey);
      expect((await bodyOf(await t.request('/api/v1/auth/me', { token: pair.access_token }))).id).toBe(user.userId);
    }
    expect((await post('session-token')).status).toBe(401);
  });

  test('a session code is exchanged once for a working pair', async () => {
    const user = await createVerifiedUser(t);
    const created = await post('session-code', undefined, user.accessToken);
    expect(created.status).toBe(200);
    const { code, expires_in } = await bodyOf(created);
    expect(expires_in).toBe(60);
    const exchanged = await post('exchange-code', { code });
    expect(exchanged.status).toBe(200);
    const pair = await bodyOf(exchanged);
    expect((await t.request('/api/v1/auth/me', { token: pair.access_token })).status).toBe(200);
    const second = await post('exchange-code', { code });
    expect(second.status).toBe(401);
    expect(await codeOf(second)).toBe('INVALID_TOKEN');
  });

  test('a session code exchanged after 60 seconds fails', async () => {
    const user = await createVerifiedUser(t);
    const { code } = await bodyOf(await post('session-code', undefined, user.accessToken));
    t.clock.advance(61_000);
    expect((await post('exchange-code', { code })).status).toBe(401);
  });

  test('a session code needs an access token, and exchange needs a code', async () => {
    expect((await post('session-code')).status).toBe(401);
    expect((await post('exchange-code', {})).status).toBe(422);
    expect((await post('exchange-code', { code: 'made-up' })).status).toBe(401);
  });
});
