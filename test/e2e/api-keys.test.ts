import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import { createVerifiedUser, type TestUser } from '../support/accounts';

// Each test has its own user: the clock only moves forward, and it expires earlier tokens when it does.
describe('API keys', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await startTestApp('local');
  });
  beforeEach(async () => {
    user = await createVerifiedUser(t, 'keys');
  });
  afterAll(() => t.stop());

  const createKey = (json: unknown, token = user.accessToken) => t.request('/api/v1/auth/api-keys', { method: 'POST', json, token });
  const useKey = (key: string) => t.request('/api/v1/auth/session-token', { method: 'POST', headers: { 'x-api-key': key } });
  const codeOf = async (response: Response) => (await bodyOf(response)).detail.error.code;

  test('creation returns the full key once: oxb_ and 43 base62 characters', async () => {
    const response = await createKey({ name: 'laptop' });
    expect(response.status).toBe(201);
    const created = await bodyOf(response);
    expect(created).toEqual({
      id: expect.any(String),
      name: 'laptop',
      key: expect.stringMatching(/^oxb_[0-9A-Za-z]{43}$/),
      prefix: created.key.slice(0, 12),
      created_at: expect.any(String),
      expires_at: null,
      last_used_at: null,
    });
    expect((await useKey(created.key)).status).toBe(200);
  });

  test('the list shows name, prefix, times and last use, never the key; it pages with X-Total-Count', async () => {
    const owner = await createVerifiedUser(t, 'lister');
    for (const name of ['one', 'two', 'three']) await createKey({ name }, owner.accessToken);
    const firstPage = await t.request('/api/v1/auth/api-keys?limit=2', { token: owner.accessToken });
    expect(firstPage.headers.get('x-total-count')).toBe('3');
    const keys = await bodyOf(firstPage);
    expect(keys.map((key: { name: string }) => key.name)).toEqual(['three', 'two']);
    for (const key of keys) expect(key.key).toBeUndefined();
    const secondPage = await bodyOf(await t.request('/api/v1/auth/api-keys?limit=2&offset=2', { token: owner.accessToken }));
    expect(secondPage.map((key: { name: string }) => key.name)).toEqual(['one']);
  });

  test('last use is recorded', async () => {
    const { id, key } = await bodyOf(await createKey({ name: 'used' }));
    await useKey(key);
    const listed = (await bodyOf(await t.request('/api/v1/auth/api-keys?limit=200', { token: user.accessToken }))).find(
      (entry: { id: string }) => entry.id === id,
    );
    expect(listed.last_used_at).toEqual(expect.any(String));
  });

  test.each([
    ['limit above 200', '?limit=201'],
    ['limit of 0', '?limit=0'],
    ['negative offset', '?offset=-3'],
  ])('422 for a list with %s', async (_, query) => {
    expect((await t.request(`/api/v1/auth/api-keys${query}`, { token: user.accessToken })).status).toBe(422);
  });

  test('reveal needs the password and returns the full key', async () => {
    const created = await bodyOf(await createKey({ name: 'to reveal' }));
    const wrong = await t.request(`/api/v1/auth/api-keys/${created.id}/reveal`, { method: 'POST', json: { password: 'wrong' }, token: user.accessToken });
    expect(wrong.status).toBe(401);
    expect(await codeOf(wrong)).toBe('INVALID_CREDENTIALS');
    const revealed = await t.request(`/api/v1/auth/api-keys/${created.id}/reveal`, {
      method: 'POST',
      json: { password: user.password },
      token: user.accessToken,
    });
    expect(revealed.status).toBe(200);
    expect((await bodyOf(revealed)).key).toBe(created.key);
  });

  test("another user's key cannot be revealed or revoked", async () => {
    const created = await bodyOf(await createKey({ name: 'private' }));
    const stranger = await createVerifiedUser(t, 'stranger');
    const reveal = await t.request(`/api/v1/auth/api-keys/${created.id}/reveal`, {
      method: 'POST',
      json: { password: stranger.password },
      token: stranger.accessToken,
    });
    expect(reveal.status).toBe(404);
    expect((await t.request(`/api/v1/auth/api-keys/${created.id}`, { method: 'DELETE', token: stranger.accessToken })).status).toBe(404);
    expect((await useKey(created.key)).status).toBe(200);
  });

  test('a revoked key stops working and leaves the list', async () => {
    const created = await bodyOf(await createKey({ name: 'to revoke' }));
    expect((await t.request(`/api/v1/auth/api-keys/${created.id}`, { method: 'DELETE', token: user.accessToken })).status).toBe(204);
    const refused = await useKey(created.key);
    expect(refused.status).toBe(401);
    expect(await codeOf(refused)).toBe('INVALID_API_KEY');
    const list = await bodyOf(await t.request('/api/v1/auth/api-keys?limit=200', { token: user.accessToken }));
    expect(list.some((entry: { id: string }) => entry.id === created.id)).toBe(false);
    expect((await t.request(`/api/v1/auth/api-keys/${created.id}`, { method: 'DELETE', token: user.accessToken })).status).toBe(404);
  });

  test('an expired key gets 401 EXPIRED_API_KEY', async () => {
    const expiresAt = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    const created = await bodyOf(await createKey({ name: 'short-lived', expires_at: expiresAt }));
    expect(created.expires_at).toBe(expiresAt);
    expect((await useKey(created.key)).status).toBe(200);
    t.clock.advance(3_600_000 + 1_000);
    const refused = await useKey(created.key);
    expect(refused.status).toBe(401);
    expect(await codeOf(refused)).toBe('EXPIRED_API_KEY');
  });

  test('a malformed or unknown key gets 401 INVALID_API_KEY', async () => {
    for (const key of ['oxb_short', `oxb_${'A'.repeat(43)}`, 'sk_live_something']) {
      const refused = await t.request('/api/v1/auth/session-token', { method: 'POST', headers: { 'x-api-key': key } });
      expect(refused.status).toBe(401);
      expect(await codeOf(refused)).toBe('INVALID_API_KEY');
    }
  });

  test('422 for creation without a name, with a bad expiry, or with an id that is not a uuid', async () => {
    expect((await createKey({})).status).toBe(422);
    expect((await createKey({ name: 'x', expires_at: 'tomorrow' })).status).toBe(422);
    expect((await t.request('/api/v1/auth/api-keys/not-a-uuid', { method: 'DELETE', token: user.accessToken })).status).toBe(422);
  });

  test('an expiry in the past is refused', async () => {
    const response = await createKey({ name: 'x', expires_at: '2020-01-01T00:00:00Z' });
    expect(response.status).toBe(400);
  });

  test('the key endpoints need an access token', async () => {
    expect((await t.request('/api/v1/auth/api-keys')).status).toBe(401);
  });
});
