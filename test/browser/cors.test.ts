import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { type TestApp } from '../support/test-app';
import { type TestUser } from '../support/accounts';
import { startHttpServer, type HttpServer } from '../../src/api/server';
import { freePort } from '../../src/process/ports';
import { withUser } from '../support/fixtures';

/**
 * CORS as a browser enforces it: a page of a listed origin calls the API with a bearer token and reads
 * the answer and its headers; a page of another origin cannot, and neither can a request that asks to
 * send the browser's own credentials along.
 */
describe('CORS in a real browser', () => {
  let t: TestApp;
  let api: HttpServer;
  let browser: Browser;
  let owner: TestUser;
  const pages: ReturnType<typeof Bun.serve>[] = [];
  let listed: string;
  let other: string;

  beforeAll(async () => {
    const [listedPort, otherPort] = [await freePort(), await freePort()];
    listed = `http://127.0.0.1:${listedPort}`;
    other = `http://127.0.0.1:${otherPort}`;
    for (const port of [listedPort, otherPort])
      pages.push(
        Bun.serve({
          hostname: '127.0.0.1',
          port,
          fetch: () => new Response('<!doctype html><title>client</title>', { headers: { 'content-type': 'text/html' } }),
        }),
      );
    ({ t, user: owner } = await withUser('local', { env: { CORS_ALLOWED_ORIGINS: listed }, label: 'cors-browser' }));
    api = startHttpServer(t.app, { host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    for (const page of pages) await page.stop(true);
    await api?.stop();
    await t?.stop();
  });

  /** Runs fetch in a page of the origin; returns the status and X-Total-Count, or the browser's refusal. */
  async function callFrom(origin: string, init: { method: string; credentials?: 'include' | 'omit'; body?: string }) {
    const page = await browser.newPage();
    try {
      await page.goto(`${origin}/`);
      return await page.evaluate(
        async ({ url, token, init }) => {
          try {
            const headers: Record<string, string> = { authorization: `Bearer ${token}` };
            if (init.body) headers['content-type'] = 'application/json';
            const response = await fetch(url, { method: init.method, headers, credentials: init.credentials ?? 'omit', body: init.body });
            return { status: response.status, total: response.headers.get('x-total-count'), location: response.headers.get('location') };
          } catch (error) {
            return { refused: String(error) };
          }
        },
        { url: `${api.url}/api/v1/workspaces`, token: owner.accessToken, init },
      );
    } finally {
      await page.close();
    }
  }

  test('a listed origin reads the answer and its exposed headers, after a preflight for a JSON POST', async () => {
    expect(await callFrom(listed, { method: 'GET' })).toEqual({ status: 200, total: '0', location: null });
    const created = await callFrom(listed, { method: 'POST', body: JSON.stringify({ name: 'From a page', slug: `cors-${Date.now().toString(36)}` }) });
    expect(created).toMatchObject({ status: 201 });
    expect((created as { location: string }).location).toStartWith('/api/v1/workspaces/');
  });

  test('another origin, or a request carrying the browser’s credentials, is refused by the browser', async () => {
    expect(await callFrom(other, { method: 'GET' })).toEqual({ refused: expect.stringContaining('Failed to fetch') });
    expect(await callFrom(listed, { method: 'GET', credentials: 'include' })).toEqual({ refused: expect.stringContaining('Failed to fetch') });
  });
});
