import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../../support/test-app';
import { type TestUser } from '../../support/accounts';
import { withUser } from '../../support/fixtures';

const console = 'https://console.example.com';

describe('CORS', () => {
  let t: TestApp;
  let closed: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    [{ t, user: owner }, closed] = await Promise.all([
      withUser('local', { env: { CORS_ALLOWED_ORIGINS: `${console}, http://localhost:5173` }, label: 'cors' }),
      startTestApp('local'),
    ]);
  });
  afterAll(() => Promise.all([t.stop(), closed.stop()]));

  const call = (app: TestApp, path: string, init: RequestInit = {}) => app.app.handle(new Request(`http://localhost${path}`, init));
  const preflight = (app: TestApp, origin: string, method = 'GET', headers = 'authorization') =>
    call(app, '/api/v1/workspaces', {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
    });

  test('a preflight from a listed origin is answered: its methods, the headers a client sends, never credentials', async () => {
    const response = await preflight(t, console, 'POST', 'Authorization, Content-Type, Idempotency-Key');
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(console);
    expect(response.headers.get('access-control-allow-methods')!.split(', ').sort()).toEqual(['GET', 'POST']);
    expect(response.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(response.headers.get('access-control-allow-headers')).toContain('x-api-key');
    expect(Number(response.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('vary')).toContain('Origin');
  });

  test('a preflight from any other origin, for a method the path does not serve or a header it does not take, is not allowed', async () => {
    for (const response of [await preflight(t, 'https://evil.example.net'), await preflight(t, `${console}.evil.example.net`)]) {
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(response.status).toBe(405);
    }
    // A browser fails a preflight whose answer is not a 2xx granting the method and headers.
    for (const response of [await preflight(t, console, 'DELETE'), await preflight(t, console, 'GET', 'authorization, x-forwarded-for')]) {
      expect(response.status).toBe(405);
      expect(response.headers.get('access-control-allow-methods')).toBeNull();
      expect(response.headers.get('access-control-allow-headers')).toBeNull();
    }
  });

  test('answers to a listed origin carry the origin and the readable headers, errors included; others get none', async () => {
    const listed = await call(t, '/api/v1/workspaces', { headers: { origin: 'http://localhost:5173', authorization: `Bearer ${owner.accessToken}` } });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(listed.headers.get('access-control-expose-headers')).toContain('X-Total-Count');
    expect(listed.headers.get('access-control-allow-credentials')).toBeNull();
    expect(listed.headers.get('vary')).toContain('Origin');
    const refused = await call(t, '/api/v1/workspaces', { headers: { origin: console } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(console);
    const other = await call(t, '/api/v1/workspaces', { headers: { origin: 'https://evil.example.net', authorization: `Bearer ${owner.accessToken}` } });
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('vary')).toContain('Origin');
  });

  test('by default no origin is allowed: no CORS header at all, and a preflight is refused as before', async () => {
    const response = await preflight(closed, console);
    expect(response.status).toBe(405);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const answer = await call(closed, '/livez', { headers: { origin: console } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });
});
