import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { checkRoom, openWatched, screenshotDir, signedInPage, startConsole, typeSql, waitForRoom, type ConsoleUnderTest } from '../support/console-browser';
import { pushOk } from '../support/lake';

/**
 * Saved queries, charts and pages in the browser: a query saved with typed parameters and run through
 * its form; a chart built on it with a live preview; a page of the chart and text, reordered;
 * both published (the chart with a locked parameter, the page with an expiry) and opened in a second
 * browser without a session; the page unpublished.
 */
describe('the console: saved queries, charts, pages and their public links', () => {
  let under: ConsoleUnderTest;
  const shots = screenshotDir('console-sharing');

  beforeAll(async () => {
    under = await startConsole();
  });

  afterAll(async () => {
    await under?.stop();
  });

  test('a saved query with parameters, a chart of it, a page of the chart, published and opened without a session', async () => {
    const { watched, workspaceId, user } = await signedInPage(under, 'console-share');
    const { page } = watched;
    const regions = ['north', 'south', 'east'];
    await pushOk(under.t, workspaceId, user, {
      table: 'shop.sales',
      records: Array.from({ length: 36 }, (_, i) => ({
        month: `2026-${String((i % 12) + 1).padStart(2, '0')}`,
        region: regions[Math.floor(i / 12)],
        revenue: 100 + i * 5,
      })),
    });
    const stranger = await openWatched(under.browser);
    try {
      // A saved query: each {{placeholder}} of the SQL becomes a parameter to type.
      await page.getByRole('link', { name: 'Saved queries' }).click();
      await waitForRoom(page, 'Saved queries', shots);
      await page.getByText('No saved queries yet.').waitFor();
      await checkRoom(watched, shots, '00-saved-queries-empty');
      await page.getByRole('link', { name: 'New saved query' }).click();
      await waitForRoom(page, 'New saved query', shots);
      await page.getByLabel('Name', { exact: true }).fill('sales_by_month');
      await typeSql(
        page,
        'SELECT month, region, sum(revenue) AS revenue FROM shop.sales WHERE region <> {{skip_region}} AND revenue >= {{min_revenue}} GROUP BY month, region ORDER BY month, region',
      );
      await page.keyboard.press('Escape');
      await page.getByLabel('Type of skip_region').selectOption('enum');
      await page.getByLabel('Options of skip_region, separated by commas').fill('north, south, east');
      await page.getByLabel('Default of skip_region').fill('east');
      await page.getByLabel('Type of min_revenue').selectOption('integer');
      await page.getByLabel('Default of min_revenue').fill('0');
      await checkRoom(watched, shots, '01-new-saved-query');
      await page.getByRole('button', { name: 'Save query' }).click();
      await waitForRoom(page, 'sales_by_month', shots);

      // Its form is typed by the definitions: a list of the enum's options, a number field.
      expect(await page.getByLabel('min_revenue').getAttribute('type')).toBe('number');
      expect(await page.getByLabel('skip_region').inputValue()).toBe('east');
      await page.getByLabel('skip_region').selectOption('north');
      await page.getByLabel('min_revenue').fill('250');
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      await page.getByText('Rows 1–6 of 6').waitFor();
      await checkRoom(watched, shots, '02-saved-query-run');

      // A chart of it: bars of revenue by month, a series per region, stacked, previewed as it is built.
      await page.getByRole('link', { name: 'New chart from it' }).click();
      await waitForRoom(page, 'New chart', shots);
      await page.getByLabel('Name', { exact: true }).fill('sales_chart');
      await page.getByLabel('Title').fill('Revenue by month');
      await page.getByLabel('min_revenue').fill('0');
      await page.getByLabel('X axis').selectOption('month');
      await page.getByRole('checkbox', { name: 'revenue' }).check();
      await page.getByLabel('Series by').selectOption('region');
      await page.getByLabel('Stacked').check();
      const preview = page.locator('.chart-preview .chart-area');
      await preview.locator('svg path').nth(24).waitFor({ timeout: 20_000 });
      expect(await preview.getAttribute('aria-label')).toBe('Revenue by month: bar chart of revenue by month, one series per region, stacked');
      await page.getByLabel('Chart type').selectOption('line');
      await page.getByLabel('Chart type').selectOption('bar');
      await checkRoom(watched, shots, '03-chart-builder');
      await page.getByRole('button', { name: 'Create chart' }).click();
      await waitForRoom(page, 'Revenue by month', shots);
      await preview.locator('svg path').nth(24).waitFor({ timeout: 20_000 });

      // Published with south left out for everyone who opens the link.
      await page.getByRole('form', { name: 'Publish the chart' }).getByLabel('skip_region').selectOption('south');
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      const chartUrl = await page.getByLabel('Public link (shown this once)').inputValue();
      expect(chartUrl).toMatch(new RegExp(`^${under.base}/c/[A-Za-z0-9_-]{43}$`));
      await page.getByText(/^Published since/).waitFor();
      await checkRoom(watched, shots, '04-chart-published');

      await page.getByRole('link', { name: 'Charts', exact: true }).click();
      await waitForRoom(page, 'Charts', shots);
      await page
        .getByRole('row', { name: /Revenue by month/ })
        .getByText('published')
        .waitFor();
      await checkRoom(watched, shots, '04b-charts');

      // A page: text, then the chart moved above it.
      await page.getByRole('link', { name: 'Pages' }).click();
      await waitForRoom(page, 'Pages', shots);
      await page.getByRole('link', { name: 'New page' }).click();
      await waitForRoom(page, 'New page', shots);
      await page.getByLabel('Name', { exact: true }).fill('sales_page');
      await page.getByLabel('Title').fill('Sales overview');
      await page.getByRole('button', { name: 'Add text' }).click();
      await page.getByLabel('Block 1: text (Markdown)').fill('## Monthly revenue\n\nEach **region** stacked.');
      await page.getByRole('button', { name: 'Add a chart' }).click();
      await page.getByRole('button', { name: 'Move up block 2' }).click();
      expect(await page.getByLabel('Block 1: chart').inputValue()).toBe('sales_chart');
      await checkRoom(watched, shots, '05-page-editor');
      await page.getByRole('button', { name: 'Create page' }).click();
      await waitForRoom(page, 'Sales overview', shots);
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 16);
      await page.getByLabel('Expires (UTC, optional)').fill(tomorrow);
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      const pageUrl = await page.getByLabel('Public link (shown this once)').inputValue();
      expect(pageUrl).toMatch(new RegExp(`^${under.base}/p/[A-Za-z0-9_-]{43}$`));
      await page.getByText(/^Published since .*, until /).waitFor();
      await checkRoom(watched, shots, '06-page-published');

      // A second browser, without a session: the public page and chart open.
      await stranger.page.goto(pageUrl);
      expect(await stranger.page.locator('h1').textContent()).toBe('Sales overview');
      await stranger.page.locator('.chart-area svg path').nth(10).waitFor();
      expect(await stranger.page.locator('.markdown strong').textContent()).toBe('region');
      const chartBox = await stranger.page.locator('.chart-area').first().boundingBox();
      const textBox = await stranger.page.locator('.markdown').first().boundingBox();
      expect(chartBox!.y).toBeLessThan(textBox!.y);
      await stranger.page.screenshot({ path: join(shots, '07-public-page.png'), fullPage: true });
      const data = (await (await stranger.context.request.get(`${chartUrl}/data`)).json()) as { title: string; columns: { name: string }[]; rows: unknown[][] };
      expect(data.title).toBe('Revenue by month');
      const region = data.columns.findIndex((column) => column.name === 'region');
      expect(new Set(data.rows.map((row) => row[region]))).toEqual(new Set(['north', 'east']));
      expect(stranger.problems).toEqual([]);

      // Unpublished: the link answers not found at once.
      await page.getByRole('button', { name: 'Unpublish' }).click();
      await page.getByText('Not published: nobody outside the workspace can see it.').waitFor();
      expect((await stranger.page.goto(pageUrl))?.status()).toBe(404);
      await page.getByRole('link', { name: 'All pages' }).click();
      await waitForRoom(page, 'Pages', shots);
      await page.getByRole('row', { name: /Sales overview/ }).waitFor();
      await checkRoom(watched, shots, '08-pages');
    } catch (error) {
      await page.screenshot({ path: join(shots, 'failure.png'), fullPage: true }).catch(() => undefined);
      throw error;
    } finally {
      await stranger.context.close();
      await watched.context.close();
    }
  }, 110_000);
});
