import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Server } from 'bun';
import { CrmApi } from '../../src/connectors/crm/crm-api';
import { SourceError } from '../../src/connectors/source-error';

/** A provider's API that answers from a script: each request takes the next answer. */
describe('the CRM connectors’ HTTP client', () => {
  let server: Server<undefined>;
  let script: (() => Response)[] = [];
  const seen: { authorization: string | null; path: string }[] = [];

  beforeAll(() => {
    server = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch(request) {
        seen.push({ authorization: request.headers.get('authorization'), path: new URL(request.url).pathname });
        return (script.shift() ?? (() => Response.json({ ok: true })))();
      },
    });
  });
  afterAll(() => server.stop(true));

  const apiWith = (tokens: string[], options: { maxRateLimitWaits?: number } = {}) => {
    const asked: (string | undefined)[] = [];
    let current = 0;
    const api = new CrmApi({
      provider: 'Test CRM',
      credentials: {
        accessToken: () => Promise.resolve(tokens[current]!),
        oauthSession: (rejected) => {
          asked.push(rejected);
          if (rejected !== undefined) current += 1;
          return Promise.resolve({ accessToken: tokens[current]!, apiBase: `http://127.0.0.1:${server.port}/base` });
        },
      },
      allow: async () => ({ host: '127.0.0.1', port: server.port!, address: '127.0.0.1' }),
      ...options,
    });
    return { api, asked };
  };

  test('429 answers are waited out as Retry-After says, in seconds or as a date', async () => {
    seen.length = 0;
    script = [
      () => new Response(null, { status: 429, headers: { 'retry-after': '0' } }),
      () => new Response(null, { status: 429, headers: { 'retry-after': new Date(0).toUTCString() } }),
    ];
    const { api } = apiWith(['first']);
    expect(await api.json({ path: 'objects', query: { limit: '1' } })).toEqual({ ok: true });
    expect(seen.map((request) => request.path)).toEqual(['/base/objects', '/base/objects', '/base/objects']);
  });

  test('a provider that keeps answering 429 fails the request as unreachable (retried later by the sync)', async () => {
    script = Array.from({ length: 4 }, () => () => new Response(null, { status: 429, headers: { 'retry-after': '0' } }));
    const { api } = apiWith(['first'], { maxRateLimitWaits: 3 });
    const error = await api.json({ path: 'objects' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as SourceError).failure).toBe('unreachable');
  });

  test('a 401 gets a fresh token once and the request again; a second 401 is an authentication failure', async () => {
    seen.length = 0;
    script = [() => new Response(null, { status: 401 })];
    const renewed = apiWith(['old', 'new']);
    expect(await renewed.api.json({ path: 'objects' })).toEqual({ ok: true });
    expect(seen.map((request) => request.authorization)).toEqual(['Bearer old', 'Bearer new']);
    expect(renewed.asked).toContain('old');

    script = [
      () => new Response(null, { status: 401 }),
      () => Response.json([{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }], { status: 401 }),
    ];
    const error = await apiWith(['old', 'new', 'newer'])
      .api.json({ path: 'objects' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as SourceError).failure).toBe('auth');
    expect((error as SourceError).message).toBe('Test CRM answered HTTP 401: INVALID_SESSION_ID Session expired or invalid');
  });

  test('paths are relative to the API base; absolute ones (Salesforce’s nextRecordsUrl) to its origin', async () => {
    seen.length = 0;
    const { api } = apiWith(['token']);
    await api.json({ path: 'crm/v3/objects/contacts' });
    await api.json({ path: '/services/data/v59.0/query/01g-5' });
    await api.json({ path: '//elsewhere.example/steal' });
    expect(seen.map((request) => request.path)).toEqual(['/base/crm/v3/objects/contacts', '/services/data/v59.0/query/01g-5', '/elsewhere.example/steal']);
    const error = await api.json({ path: 'https://elsewhere.example/steal' }).catch((caught: unknown) => caught);
    expect((error as SourceError).message).toBe('Test CRM answered a link to another host (elsewhere.example)');
    expect(seen).toHaveLength(3);
  });
});
