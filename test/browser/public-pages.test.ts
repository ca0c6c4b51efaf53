import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { startTestApp, type TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import { pushOk } from '../support/lake';
import { startHttpServer, type HttpServer } from '../../src/api/server';
import { withWorkspace } from '../support/fixtures';

describe('public pages in a real browser', () => {
  let t: TestApp;
  let server: HttpServer;
  let browser: Browser;
  let shots: string;
  let chartUrl: string;
  let pageUrl: string;
  let expiringUrl: string;
  let revokedUrl: string;

  beforeAll(async () => {
    t = await startTestApp('local', { env: { PUBLIC_VIEWS_PER_ADDRESS: '1000' } });
    server = startHttpServer(t.app, { host: '127.0.0.1', port: 0 });
    const { user: owner, workspaceId } = await withWorkspace(t, { label: 'browser' });
    const api = `/api/v1/workspaces/${workspaceId}`;
    const send = async (path: string, json: unknown) => {
      const response = await t.request(`${api}${path}`, { method: 'POST', json, token: owner.accessToken });
      if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return bodyOf(response);
    };
    await pushOk(t, workspaceId, owner, {
      table: 'shop.sales',
      records: Array.from({ length: 12 }, (_, month) => ({
        month: `2026-${String(month + 1).padStart(2, '0')}`,
        region: month % 2 ? 'north' : 'south',
        revenue: 100 + month * 17,
      })),
    });
    const sql = 'SELECT month, region, revenue FROM shop.sales ORDER BY month';
    await send('/charts', {
      name: 'bars',
      title: 'Revenue <b>by</b> month',
      description: 'Twelve months',
      sql,
      chart_type: 'bar',
      config: { x: 'month', y: ['revenue'], series: 'region', stacked: true },
    });
    await send('/charts', { name: 'line', title: 'Trend', sql, chart_type: 'line', config: { x: 'month', y: ['revenue'] } });
    await send('/charts', {
      name: 'pie',
      title: 'Share',
      sql: 'SELECT region, sum(revenue) AS revenue FROM shop.sales GROUP BY ALL',
      chart_type: 'pie',
      config: { x: 'region', y: ['revenue'] },
    });
    await send('/pages', {
      name: 'board',
      title: 'Board',
      blocks: [{ markdown: '## Sales\nThree **charts**.' }, { chart: 'bars' }, { chart: 'line' }, { chart: 'pie' }],
    });
    chartUrl = `${server.url}/c/${(await send('/charts/bars/publish', {})).token}`;
    pageUrl = `${server.url}/p/${(await send('/pages/board/publish', {})).token}`;
    expiringUrl = `${server.url}/c/${(await send('/charts/line/publish', { expires_at: new Date(t.clock.now().getTime() + 60_000).toISOString() })).token}`;
    revokedUrl = `${server.url}/c/${(await send('/charts/pie/publish', {})).token}`;
    const unpublished = await t.request(`${api}/charts/pie/publish`, { method: 'DELETE', token: owner.accessToken });
    if (unpublished.status !== 204) throw new Error(`unpublish: ${unpublished.status}`);

    // OXBOW_SCREENSHOTS_DIR keeps the screenshots for a person to look at; otherwise they go with the test.
    shots = process.env.OXBOW_SCREENSHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'oxbow-screenshots-'));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await t?.stop();
    if (!process.env.OXBOW_SCREENSHOTS_DIR) rmSync(shots, { recursive: true, force: true });
  });

  /** Opens the URL in a fresh context, collecting policy violations and script errors. */
  async function open(url: string, javaScript: boolean): Promise<{ page: Page; status: number; problems: string[] }> {
    const context = await browser.newContext({ javaScriptEnabled: javaScript, viewport: { width: 1000, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const response = await page.goto(url, { waitUntil: 'load' });
    return { page, status: response?.status() ?? 0, problems };
  }

  /** Counts the pixels of the element's screenshot that are far from white, drawn by the browser itself on a canvas. */
  async function ink(page: Page, selector: string, file: string): Promise<number> {
    const png = await page.locator(selector).screenshot({ path: join(shots, file) });
    const probe = await browser.newPage();
    try {
      // Browser code as text: it runs in the page, where the DOM's types are, not in this test's.
      return await probe.evaluate<number>(`(async () => {
        const image = new Image();
        image.src = 'data:image/png;base64,${Buffer.from(png).toString('base64')}';
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = image.width;
        canvas.height = image.height;
        const context = canvas.getContext('2d');
        context.drawImage(image, 0, 0);
        const { data } = context.getImageData(0, 0, image.width, image.height);
        let count = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i] + data[i + 1] + data[i + 2] < 600) count += 1;
        return count;
      })()`);
    } finally {
      await probe.close();
    }
  }

  for (const javaScript of [true, false]) {
    const mode = javaScript ? 'with JavaScript' : 'with JavaScript off';

    test(`the public chart is drawn (${mode})`, async () => {
      const { page, status, problems } = await open(chartUrl, javaScript);
      expect(status).toBe(200);
      if (javaScript) await page.waitForFunction(`document.querySelector('#chart-0[data-interactive="true"] svg path') !== null`);
      expect(await page.locator('#chart-0 svg').count()).toBe(1);
      expect(await page.locator('#chart-0 svg path').count()).toBeGreaterThan(10);
      expect(await page.locator('h1').textContent()).toBe('Revenue <b>by</b> month');
      expect(await page.locator('h1 b').count()).toBe(0);
      expect(await ink(page, '#chart-0', `chart-${javaScript ? 'js' : 'nojs'}.png`)).toBeGreaterThan(2_000);
      expect(problems).toEqual([]);
      await page.context().close();
    });

    test(`a page with three charts is drawn (${mode})`, async () => {
      const { page, status, problems } = await open(pageUrl, javaScript);
      expect(status).toBe(200);
      if (javaScript) await page.waitForFunction(`document.querySelectorAll('[data-interactive="true"] svg').length === 3`);
      expect(await page.locator('.chart-area svg').count()).toBe(3);
      expect(await page.locator('.markdown strong').textContent()).toBe('charts');
      for (const position of [0, 1, 2])
        expect(await ink(page, `#chart-${position}`, `page-${position}-${javaScript ? 'js' : 'nojs'}.png`)).toBeGreaterThan(1_000);
      await page.screenshot({ path: join(shots, `page-${javaScript ? 'js' : 'nojs'}.png`), fullPage: true });
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }

  test('an unpublished or expired link shows a 404 page', async () => {
    t.clock.advance(61_000);
    const expired = await open(expiringUrl, true);
    expect(expired.status).toBe(404);
    expect(await expired.page.locator('h1').textContent()).toBe('Not found');
    await expired.page.context().close();
    for (const url of [revokedUrl, `${server.url}/p/${'x'.repeat(43)}`]) {
      const gone = await open(url, false);
      expect(gone.status).toBe(404);
      expect(await gone.page.locator('h1').textContent()).toBe('Not found');
      expect(await gone.page.locator('svg').count()).toBe(0);
      await gone.page.context().close();
    }
  });
});
