import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../support/test-app';
import { paths } from '../../web/src/router/paths';

/**
 * The console at `/`: every address of its router (and so every link the service's e-mails and
 * redirects carry) answers its page under the console's policy; its files come from the build, gzipped
 * where the browser takes it; nothing else is served from there.
 */
describe("the console's pages and files", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('local');
  });
  afterAll(() => t.stop());

  const get = (path: string, headers: Record<string, string> = {}) => t.app.handle(new Request(`http://localhost${path}`, { headers }));
  const sample: Record<string, string> = {
    workspaceId: '01a21cd6-6bf1-7065-a316-24f2a60a199a',
    table: 'shop.sales',
    connectionId: '01a21cd6-6bf1-7065-a316-24f2a60a199b',
  };
  const addresses = [
    ...Object.values(paths).map((pattern) => pattern.replace(/:(\w+)/g, (_, name: string) => sample[name] ?? 'x')),
    '/verify-email?token=abc',
    '/reset-password?token=abc',
    '/signup?email=someone%40example.test',
    `/connections/${sample.connectionId}?status=connected`,
    '/connections?error=access_denied',
    `/workspaces/${sample.workspaceId}/billing`,
  ];

  test('every console address answers the page, with the policy and a fresh style nonce', async () => {
    const nonces = new Set<string>();
    for (const address of addresses) {
      const response = await get(address);
      expect({ address, status: response.status }).toEqual({ address, status: 200 });
      const policy = response.headers.get('content-security-policy') ?? '';
      expect(policy).toContain("default-src 'none'");
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("style-src-attr 'none'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).toContain("connect-src 'self'");
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('cache-control')).toBe('no-store');
      const nonce = /'nonce-([A-Za-z0-9_-]+)'/.exec(policy)?.[1] ?? '';
      expect(nonce.length).toBeGreaterThanOrEqual(22);
      nonces.add(nonce);
      const html = await response.text();
      expect(html).toContain(`nonce="${nonce}"`);
      // Scripts by address only: no inline script, no style attribute.
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).not.toMatch(/\sstyle=/);
    }
    expect(nonces.size).toBe(addresses.length);
  });

  test('the entry module is served gzipped when the browser takes it, plain otherwise, cached for good', async () => {
    const html = await (await get('/')).text();
    const entry = /<script type="module" src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    const style = /<link rel="stylesheet" href="(\/console\/assets\/[^"]+\.css)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    expect(style).toBeDefined();
    const zipped = await get(entry!, { 'accept-encoding': 'gzip, br' });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(zipped.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const plain = await get(entry!);
    expect(plain.headers.get('content-encoding')).toBeNull();
    const text = await plain.text();
    expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await zipped.arrayBuffer())))).toBe(text);
    expect((await get(style!)).headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  test("only the build's listed files are served", async () => {
    for (const path of [
      '/console/assets/manifest.json',
      '/console/assets/..%2F..%2Fpackage.json',
      '/console/assets/nothing.js',
      '/console/assets/main.js.gz',
    ]) {
      expect({ path, status: (await get(path)).status }).toEqual({ path, status: 404 });
    }
    expect((await get('/no-such-page')).status).toBe(404);
    expect((await get('/api/v1/no-such-route')).status).toBe(404);
  });

  test('without a build, the console says how to make one (503) and the API still answers', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'oxbow-console-'));
    const bare = await startTestApp('local', { env: { CONSOLE_DIR: empty } });
    try {
      const response = await bare.app.handle(new Request('http://localhost/login'));
      expect(response.status).toBe(503);
      expect(await response.text()).toContain('The console is not built');
      expect((await bare.app.handle(new Request('http://localhost/api/v1/auth/registration-status'))).status).toBe(200);
    } finally {
      await bare.stop();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
