import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import { createVerifiedUser, latestMailTo, tokenFromMail, uniqueEmail } from '../support/accounts';

describe('the account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('local', { worker: true });
  });
  afterAll(() => t.stop());

  const post = (path: string, json?: unknown, token?: string) => t.request(`/api/v1/auth/${path}`, { method: 'POST', json, token });

  test('GET /auth/me describes the signed-in account', async () => {
    const user = await createVerifiedUser(t, 'me');
    const me = await bodyOf(await t.request('/api/v1/auth/me', { token: user.accessToken }));
    expect(me).toEqual({ id: user.userId, email: user.email, name: null, email_verified: true, pending_email: null, created_at: expect.any(String) });
  });

  test('change-email needs the password', async () => {
    const user = await createVerifiedUser(t);
    const response = await post('me/change-email', { new_email: uniqueEmail('new'), password: 'wrong password' }, user.accessToken);
    expect(response.status).toBe(401);
  });

  test('change-email switches the address only once the new one is confirmed', async () => {
    const user = await createVerifiedUser(t);
    const newEmail = uniqueEmail('moved');
    const requested = await post('me/change-email', { new_email: newEmail, password: user.password }, user.accessToken);
    expect(requested.status).toBe(200);
    expect(await bodyOf(requested)).toMatchObject({ email: user.email, pending_email: newEmail });
    expect((await latestMailTo(t, user.email))?.subject).toBe('Your Oxbow e-mail address is being changed');

    expect((await post('login', { email: newEmail, password: user.password })).status).toBe(401);
    const token = await tokenFromMail(t, newEmail);
    expect((await post('verify-email', { token })).status).toBe(200);
    const me = await bodyOf(await t.request('/api/v1/auth/me', { token: user.accessToken }));
    expect(me).toMatchObject({ email: newEmail, pending_email: null });
    expect((await post('login', { email: newEmail, password: user.password })).status).toBe(200);
    expect((await post('login', { email: user.email, password: user.password })).status).toBe(401);
  });

  test('422 for change-email to a malformed address', async () => {
    const user = await createVerifiedUser(t);
    expect((await post('me/change-email', { new_email: 'nope', password: user.password }, user.accessToken)).status).toBe(422);
  });

  test('delete-account needs the password', async () => {
    const user = await createVerifiedUser(t);
    expect((await post('me/delete-account', { password: 'wrong' }, user.accessToken)).status).toBe(401);
    expect((await post('me/delete-account', {}, user.accessToken)).status).toBe(422);
    expect((await t.request('/api/v1/auth/me', { token: user.accessToken })).status).toBe(200);
  });

  test('a deleted account stops working at once: login, access token, refresh token and API keys', async () => {
    const user = await createVerifiedUser(t);
    const key = (await bodyOf(await post('api-keys', { name: 'before deletion' }, user.accessToken))).key;
    expect((await post('me/delete-account', { password: user.password }, user.accessToken)).status).toBe(204);

    expect((await post('login', { email: user.email, password: user.password })).status).toBe(401);
    expect((await t.request('/api/v1/auth/me', { token: user.accessToken })).status).toBe(401);
    expect((await post('refresh', { refresh_token: user.refreshToken })).status).toBe(401);
    const viaKey = await t.request('/api/v1/auth/session-token', { method: 'POST', headers: { 'x-api-key': key } });
    expect(viaKey.status).toBe(401);
    expect((await bodyOf(viaKey)).detail.error.code).toBe('INVALID_API_KEY');
  });

  test('the address of a deleted account can sign up again', async () => {
    const user = await createVerifiedUser(t);
    await post('me/delete-account', { password: user.password }, user.accessToken);
    expect((await post('signup', { email: user.email, password: 'a fresh start here' })).status).toBe(201);
    const token = await tokenFromMail(t, user.email);
    expect((await post('verify-email', { token })).status).toBe(200);
    expect((await post('login', { email: user.email, password: 'a fresh start here' })).status).toBe(200);
  });
});
