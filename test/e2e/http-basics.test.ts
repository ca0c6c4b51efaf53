import { bodyOf } from '../support/http';
import { describe, expect, test } from 'bun:test';
import { Elysia, t } from 'elysia';
import { healthRoutes } from '../../src/api/health';
import { httpBasics } from '../../src/api/plugins/http-basics';
import { paginationQuery } from '../../src/api/query-params';
import { routeMethods } from '../../src/api/route-methods';
import { AppError } from '../../src/errors/app-error';
import { createLogger } from '../../src/logging/logger';

const logLines: string[] = [];
const logger = createLogger({ level: 'info', sink: (line) => logLines.push(line) });
const healthy = { metadata: async () => {}, lake: async () => {}, temporal: async () => {} };
const healthApp = (probes: typeof healthy) =>
  new Elysia()
    .use(httpBasics(logger))
    .use(healthRoutes(probes, 'getServiceHealth'))
    .group('/api/v1', (api) => api.use(healthRoutes(probes, 'getHealth')));
const call = (app: { handle(request: Request): Promise<Response> }, path: string, init?: RequestInit) =>
  app.handle(new Request(`http://localhost${path}`, init));
const postJson = (body: string) => ({ method: 'POST', body, headers: { 'content-type': 'application/json' } });

// A probe app with the same plugins as the service, for the rules every route inherits.
const allowedMethods = routeMethods((): readonly { method: string; path: string }[] => probe.routes);
const probe = new Elysia().use(httpBasics(logger, { allowedMethods })).group('/api/v1', (api) =>
  api
    .get('/things', ({ query }) => query, { query: paginationQuery() })
    .get('/things/:thing_id', ({ params }) => params, { params: t.Object({ thing_id: t.String({ format: 'uuid' }) }) })
    .post('/things', ({ body }) => body, {
      body: t.Object({ name: t.String({ minLength: 1 }), slug: t.String({ minLength: 3, maxLength: 63 }), size: t.Integer({ minimum: 0 }) }),
    })
    .get('/conflict', () => {
      throw new AppError('RATE_LIMITED', 'Too many queries', { hint: 'Wait a little', headers: { 'retry-after': '12' } });
    })
    .get('/crash', () => {
      throw new Error('database password is hunter2');
    }),
);

describe('HTTP basics', () => {
  test('health reports every dependency and answers 200 when all are up', async () => {
    const response = await call(healthApp(healthy), '/health');
    expect(response.status).toBe(200);
    const body = await bodyOf(response);
    expect(body.status).toBe('ok');
    expect(Object.keys(body.checks).sort()).toEqual(['lake', 'metadata', 'temporal']);
  });

  test('health answers 503 naming the dependency that is down, also under /api/v1', async () => {
    const app = healthApp({ ...healthy, temporal: async () => Promise.reject(new Error('connection refused')) });
    for (const path of ['/health', '/api/v1/health']) {
      const response = await call(app, path);
      expect(response.status).toBe(503);
      expect((await bodyOf(response)).checks.temporal).toMatchObject({ status: 'down', error: 'connection refused' });
    }
  });

  test('an unknown route is a 404 in the error envelope', async () => {
    const response = await call(probe, '/api/v1/nothing-here');
    expect(response.status).toBe(404);
    expect(await bodyOf(response)).toEqual({ detail: { error: { code: 'NOT_FOUND', message: 'No route for GET /api/v1/nothing-here' } } });
  });

  test('a method a path is not served under is a 405 naming the ones it is, in the envelope', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const response = await call(probe, '/api/v1/things', { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, POST');
      expect((await bodyOf(response)).detail.error.code).toBe('METHOD_NOT_ALLOWED');
    }
    const one = await call(probe, '/api/v1/things/0190a6c1-0000-7000-8000-000000000000', { method: 'POST' });
    expect(one.status).toBe(405);
    expect(one.headers.get('allow')).toBe('GET');
  });

  test('every response carries a request id; a sane incoming one is kept', async () => {
    const generated = await call(probe, '/api/v1/things');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await call(probe, '/api/v1/nothing', { headers: { 'x-request-id': 'client-chosen-id-42' } });
    expect(kept.headers.get('x-request-id')).toBe('client-chosen-id-42');
    const refused = await call(probe, '/api/v1/things', { headers: { 'x-request-id': 'bad id <script>' } });
    expect(refused.headers.get('x-request-id')).not.toBe('bad id <script>');
  });

  test.each([
    ['limit above 200', '?limit=201', ['query', 'limit'], 'less_than_equal'],
    ['limit below 1', '?limit=0', ['query', 'limit'], 'greater_than_equal'],
    ['negative offset', '?offset=-1', ['query', 'offset'], 'greater_than_equal'],
    ['non-numeric limit', '?limit=ten', ['query', 'limit'], 'int_parsing'],
  ])('422 for %s, in the FastAPI shape', async (_, query, loc, type) => {
    const response = await call(probe, `/api/v1/things${query}`);
    expect(response.status).toBe(422);
    expect(await bodyOf(response)).toEqual({ detail: [{ loc, msg: expect.any(String), type }] });
  });

  test('pagination defaults apply when limit and offset are absent', async () => {
    expect(await bodyOf(await call(probe, '/api/v1/things'))).toEqual({ limit: 50, offset: 0 });
  });

  test('422 for a malformed path parameter', async () => {
    const response = await call(probe, '/api/v1/things/not-a-uuid');
    expect(response.status).toBe(422);
    expect((await bodyOf(response)).detail[0].loc).toEqual(['path', 'thing_id']);
  });

  test('422 lists every body problem: missing, too short, wrong type', async () => {
    const response = await call(probe, '/api/v1/things', postJson('{"slug":"ab","size":"big"}'));
    expect(response.status).toBe(422);
    expect((await bodyOf(response)).detail).toEqual([
      { loc: ['body', 'name'], msg: 'Field required', type: 'missing' },
      { loc: ['body', 'slug'], msg: 'String should have at least 3 characters', type: 'string_too_short' },
      { loc: ['body', 'size'], msg: 'Input should be a valid integer', type: 'int_parsing' },
    ]);
  });

  test('422 for a body that is not JSON at all', async () => {
    const response = await call(probe, '/api/v1/things', postJson('{"name": '));
    expect(response.status).toBe(422);
    expect(await bodyOf(response)).toEqual({ detail: [{ loc: ['body'], msg: expect.any(String), type: 'json_invalid' }] });
  });

  test('a domain error renders its code, hint and headers', async () => {
    const response = await call(probe, '/api/v1/conflict');
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('12');
    expect(await bodyOf(response)).toEqual({ detail: { error: { code: 'RATE_LIMITED', message: 'Too many queries', hint: 'Wait a little' } } });
  });

  test('an unexpected error is a 500 without internals; the log holds them, tied to the request id', async () => {
    const response = await call(probe, '/api/v1/crash');
    expect(response.status).toBe(500);
    const body = await bodyOf(response);
    expect(body.detail.error.code).toBe('INTERNAL_ERROR');
    expect(JSON.stringify(body)).not.toContain('hunter2');
    const requestId = response.headers.get('x-request-id')!;
    expect(body.detail.error.hint).toContain(requestId);
    expect(logLines.some((line) => line.includes('unhandled error') && line.includes(requestId))).toBe(true);
  });

  test('each request is logged once with method, path, status and duration, never its headers', async () => {
    await call(probe, '/api/v1/things?limit=5', { headers: { authorization: 'Bearer should-not-be-logged' } });
    await Bun.sleep(5);
    const entry = logLines.map((line) => JSON.parse(line)).findLast((line) => line.msg === 'request' && line.path === '/api/v1/things');
    expect(entry).toMatchObject({ method: 'GET', status: 200, duration_ms: expect.any(Number), request_id: expect.any(String) });
    expect(logLines.join('\n')).not.toContain('should-not-be-logged');
  });
});
