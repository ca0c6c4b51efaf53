import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import { createVerifiedUser, latestMailTo, tokenFromMail, uniqueEmail } from '../support/accounts';

describe('passwords', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('local');
  });
  afterAll(() => t.stop());

  const post = (path: string, json?: unknown, token?: string) => t.request(`/api/v1/auth/${path}`, { method: 'POST', json, token });
  const login = (email: string, password: string) => post('login', { email, password });

  test('forgot-password answers the same for known and unknown addresses and mails a reset link to the known one', async () => {
    const user = await createVerifiedUser(t);
    const known = await post('forgot-password', { email: user.email });
    const unknown = await post('forgot-password', { email: uniqueEmail('ghost') });
    expect([known.status, unknown.status]).toEqual([200, 200]);
    expect(await bodyOf(known)).toEqual(await bodyOf(unknown));
    expect((await latestMailTo(t, user.email))?.text).toContain(`${t.backend.config.http.frontendUrl}/reset-password?token=`);
  });

  test('a reset sets the new password and ends every session', async () => {
    const user = await createVerifiedUser(t);
    await post('forgot-password', { email: user.email });
    const token = await tokenFromMail(t, user.email);
    expect((await post('reset-password', { token, new_password: 'a brand new password' })).status).toBe(200);
    expect((await post('refresh', { refresh_token: user.refreshToken })).status).toBe(401);
    expect((await t.request('/api/v1/auth/me', { token: user.accessToken })).status).toBe(401);
    expect((await login(user.email, user.password)).status).toBe(401);
    expect((await login(user.email, 'a brand new password')).status).toBe(200);
    expect((await post('reset-password', { token, new_password: 'yet another password' })).status).toBe(400);
  });

  test('a reset link is valid for one hour', async () => {
    const user = await createVerifiedUser(t);
    await post('forgot-password', { email: user.email });
    const token = await tokenFromMail(t, user.email);
    t.clock.advance(3_600_000 + 1_000);
    expect((await post('reset-password', { token, new_password: 'a brand new password' })).status).toBe(400);
  });

  test('422 for a reset with a short password or no token', async () => {
    expect((await post('reset-password', { token: 'x', new_password: 'short' })).status).toBe(422);
    expect((await post('reset-password', { new_password: 'long enough password' })).status).toBe(422);
  });

  test('change-password needs the current password', async () => {
    const user = await createVerifiedUser(t);
    const response = await post('me/change-password', { current_password: 'wrong', new_password: 'a brand new password' }, user.accessToken);
    expect(response.status).toBe(401);
    expect((await bodyOf(response)).detail.error.code).toBe('INVALID_CREDENTIALS');
    expect((await login(user.email, user.password)).status).toBe(200);
  });

  test('change-password ends every session, access and refresh tokens alike', async () => {
    const user = await createVerifiedUser(t);
    expect((await post('me/change-password', { current_password: user.password, new_password: 'a brand new password' }, user.accessToken)).status).toBe(200);
    expect((await post('refresh', { refresh_token: user.refreshToken })).status).toBe(401);
    expect((await t.request('/api/v1/auth/me', { token: user.accessToken })).status).toBe(401);
    expect((await login(user.email, 'a brand new password')).status).toBe(200);
  });

  test('422 for change-password with a short new password', async () => {
    const user = await createVerifiedUser(t);
    expect((await post('me/change-password', { current_password: user.password, new_password: 'short' }, user.accessToken)).status).toBe(422);
  });
});
