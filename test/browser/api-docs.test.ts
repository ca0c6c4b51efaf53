import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { startTestApp, type TestApp } from '../support/test-app';
import { startHttpServer, type HttpServer } from '../../src/api/server';
import { freePort } from '../../src/process/ports';
import { bodyOf } from '../support/http';

/**
 * `/docs` in a real browser under its own strict policy: the viewer comes from the service, draws
 * every operation, and its "Try it out" reaches the API, with no request leaving the service and no
 * policy violation on the way.
 */
describe('the API docs page in a real browser', () => {
  let t: TestApp;
  let server: HttpServer;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    // The document names the public address as its server: "Try it out" sends its requests there.
    t = await startTestApp('local', { env: { PUBLIC_BASE_URL: origin } });
    server = startHttpServer(t.app, { host: '127.0.0.1', port });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await t?.stop();
  });

  test('loads from the service only, draws every operation, and tries one out', async () => {
    const operations = Object.values((await bodyOf(await fetch(`${origin}/openapi.json`))).paths as Record<string, object>).reduce(
      (count: number, item) => count + Object.keys(item).length,
      0,
    );
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const requested: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));

    const response = await page.goto(`${origin}/docs`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    expect(await page.locator('.opblock').count()).toBe(operations);

    const liveness = page.locator('#operations-Health-getLiveness');
    await liveness.locator('.opblock-summary').click();
    await liveness.locator('.try-out__btn').click();
    await liveness.locator('.execute').click();
    const status = liveness.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor({ timeout: 15_000 });
    expect((await status.textContent())?.trim()).toBe('200');

    expect(requested.length).toBeGreaterThan(3);
    expect(requested.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
    expect(requested).toContain(`${origin}/livez`);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  test('the assets come with the policy, and an unknown one is a 404', async () => {
    for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css', 'docs.js']) {
      const asset = await fetch(`${origin}/docs/assets/${file}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
    expect((await fetch(`${origin}/docs/assets/..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${origin}/docs/assets/index.html`)).status).toBe(404);
  });
});
