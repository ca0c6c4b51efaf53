import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import { createWorkspace } from '../../support/workspaces';
import { negotiate } from '../../../src/api/plugins/compression';
import { bodyOf } from '../../support/http';
import { startHttpServer } from '../../../src/api/server';
import { withUser } from '../../support/fixtures';

const withoutTimings = (text: string) => {
  const { execution_time_ms: _time, metadata: _metadata, ...rest } = JSON.parse(text) as Record<string, unknown>;
  return rest;
};
const decoders: Record<string, (bytes: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync };

describe('response compression', () => {
  let t: TestApp, owner: TestUser;
  beforeAll(async () => ({ t, user: owner } = await withUser('local', { env: { COMPRESSION_MIN_BYTES: '2048' }, label: 'compress' })));
  // A workspace of its own for each test that queries: a Free workspace runs 10 queries a minute.
  const freshWorkspace = async () => (await createWorkspace(t, owner)).id;
  afterAll(() => t.stop());

  const send = (path: string, acceptEncoding: string | undefined, init: RequestInit & { json?: unknown } = {}) => {
    const headers = new Headers(init.headers);
    if (acceptEncoding !== undefined) headers.set('accept-encoding', acceptEncoding);
    if (init.json !== undefined) headers.set('content-type', 'application/json');
    headers.set('authorization', `Bearer ${owner.accessToken}`);
    return t.app.handle(new Request(`http://localhost${path}`, { ...init, headers, body: init.json === undefined ? init.body : JSON.stringify(init.json) }));
  };
  const decoded = async (response: Response) => {
    const bytes = Buffer.from(await response.arrayBuffer());
    const encoding = response.headers.get('content-encoding');
    return (encoding ? decoders[encoding]!(bytes) : bytes).toString('utf8');
  };

  test('negotiates by Accept-Encoding and its q-values, brotli on a tie', () => {
    expect(negotiate('gzip, deflate, br')).toBe('br');
    expect(negotiate('gzip')).toBe('gzip');
    expect(negotiate('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(negotiate('br;q=0, gzip;q=0')).toBeUndefined();
    expect(negotiate('*')).toBe('br');
    expect(negotiate('*;q=0.1, gzip;q=0.5')).toBe('gzip');
    expect(negotiate('identity')).toBeUndefined();
    expect(negotiate(null)).toBeUndefined();
    expect(negotiate('zstd, deflate')).toBeUndefined();
  });

  test('a large document goes out in the encoding asked for, and decodes to the same bytes', async () => {
    const plain = await (await send('/openapi.json', undefined)).text();
    for (const [accept, encoding] of [
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['gzip;q=1, br;q=0.2', 'gzip'],
    ] as const) {
      const response = await send('/openapi.json', accept);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-encoding')).toBe(encoding);
      expect(response.headers.get('vary')).toContain('Accept-Encoding');
      expect(response.headers.get('content-length')).toBeNull();
      const body = await decoded(response);
      expect(body).toBe(plain);
    }
    const none = await send('/openapi.json', 'identity');
    expect(none.headers.get('content-encoding')).toBeNull();
    expect(none.headers.get('vary')).toContain('Accept-Encoding');
    expect(await none.text()).toBe(plain);
  });

  test('a whole answer goes out compressed in one piece with its length; a long stream without one', async () => {
    const workspaceId = await freshWorkspace();
    const sql = (rows: number) => `SELECT i, repeat('x', 50) AS s FROM range(${rows}) t(i)`;
    const small = await send('/api/v1/query', 'gzip', { method: 'POST', json: { sql: sql(100), workspace_id: workspaceId } });
    expect(small.headers.get('content-encoding')).toBe('gzip');
    const bytes = Buffer.from(await small.arrayBuffer());
    expect(small.headers.get('content-length')).toBe(String(bytes.byteLength));
    expect(JSON.parse(gunzipSync(bytes).toString('utf8')).row_count).toBe(100);
    const large = await send('/api/v1/query', 'gzip', { method: 'POST', json: { sql: sql(20_000), workspace_id: workspaceId, format: 'csv' } });
    expect(large.headers.get('content-encoding')).toBe('gzip');
    expect(large.headers.get('content-length')).toBeNull();
    expect((await decoded(large)).split('\r\n')).toHaveLength(20_002);
  });

  test('a client that leaves in the middle of a compressed stream leaves the service as it was', async () => {
    const server = startHttpServer(t.app, { host: '127.0.0.1', port: 0 });
    try {
      const workspaceId = await freshWorkspace();
      const aborted = new AbortController();
      const response = await fetch(`${server.url}/api/v1/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.accessToken}`, 'accept-encoding': 'br' },
        body: JSON.stringify({ sql: "SELECT i, repeat('y', 40) AS s FROM range(300000) t(i)", workspace_id: workspaceId, format: 'csv' }),
        signal: aborted.signal,
        decompress: false,
      });
      expect(response.headers.get('content-encoding')).toBe('br');
      const reader = response.body!.getReader();
      expect((await reader.read()).done).toBe(false);
      aborted.abort();
      await reader.cancel().catch(() => {});
      await Bun.sleep(200);
      const after = await fetch(`${server.url}/api/v1/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.accessToken}`, 'accept-encoding': 'gzip' },
        body: JSON.stringify({ sql: 'SELECT 42 AS answer', workspace_id: workspaceId }),
      });
      expect(after.status).toBe(200);
      expect(((await after.json()) as { rows: unknown[][] }).rows).toEqual([[42]]);
    } finally {
      await server.stop();
    }
  });

  test('an answer under the threshold goes out as it is, still saying that it varies', async () => {
    const response = await send('/livez', 'br, gzip');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('vary')).toContain('Accept-Encoding');
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  test('streamed results are compressed as they stream: large JSON and CSV', async () => {
    const sql = "SELECT i, 'row ' || i AS label, i * 0.5 AS half FROM range(60000) t(i)";
    for (const format of ['json', 'csv', 'objects'] as const) {
      const workspaceId = await freshWorkspace();
      const body = { sql, workspace_id: workspaceId, format };
      const plain = await (await send('/api/v1/query', undefined, { method: 'POST', json: body })).text();
      for (const encoding of ['br', 'gzip']) {
        const response = await send('/api/v1/query', encoding, { method: 'POST', json: body });
        expect(response.status).toBe(200);
        expect(response.headers.get('content-encoding')).toBe(encoding);
        const text = await decoded(response);
        // The same rows; timings differ between two runs.
        if (format === 'csv') expect(text).toBe(plain);
        else expect(withoutTimings(text)).toEqual(withoutTimings(plain));
      }
      expect(plain.length).toBeGreaterThan(1_000_000);
    }
  });

  test('errors are compressed like any answer, yet answers that carry credentials never are', async () => {
    const keys = await send('/api/v1/auth/api-keys', 'br, gzip', { method: 'POST', json: { name: 'x'.repeat(100) } });
    expect(keys.status).toBe(201);
    expect(keys.headers.get('content-encoding')).toBeNull();
    expect((await bodyOf(keys)).key).toStartWith('oxb_');
    const invalid = await send('/api/v1/query', 'gzip', {
      method: 'POST',
      json: { sql: `SELECT ${'1 + '.repeat(2000)} FROM`, workspace_id: await freshWorkspace() },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(await decoded(invalid)).detail.error.code).toBe('SYNTAX_ERROR');
  });
});
