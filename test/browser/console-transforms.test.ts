import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { checkRoom, screenshotDir, signedInPage, startConsole, typeSql, waitForRoom, type ConsoleUnderTest } from '../support/console-browser';
import { queryRows } from '../support/connections';
import { pushOk } from '../support/lake';
import { createTransformOk } from '../support/transforms';

/** A node of the DAG's graph by its transform's name. */
const node = (page: Page, name: string) => page.locator(`svg.dag g.dag-node[data-node="${name}"]`);
/** Waits for a node to read as said (a run's end reaches the graph's states a moment before its staleness). */
const nodeReads = (page: Page, name: string, label: string) =>
  page.locator(`svg.dag g.dag-node[data-node="${name}"][aria-label="${label}"]`).waitFor({ timeout: 10_000 });

/**
 * Transforms in the browser: two made in the editor, the second after the first; the DAG drawn as a
 * graph; the second chosen in the graph and run with what it needs; the run's nodes with their timing;
 * a failing transform run as the stale one, fixed in the editor and retried from the failure; the
 * workspace's schedule.
 */
describe('the console: transforms and their DAG', () => {
  let under: ConsoleUnderTest;
  const shots = screenshotDir('console-transforms');

  beforeAll(async () => {
    under = await startConsole();
  });

  afterAll(async () => {
    await under?.stop();
  });

  test('two dependent transforms made, run from the graph, a failure retried, scheduled', async () => {
    const { watched, workspaceId, user } = await signedInPage(under, 'console-dag');
    const { page } = watched;
    const days = ['mon', 'tue', 'wed', 'thu'];
    await pushOk(under.t, workspaceId, user, {
      table: 'raw.orders',
      records: Array.from({ length: 40 }, (_, i) => ({ id: i + 1, day: days[i % 4], amount: 10 + i })),
    });
    try {
      await page.getByRole('link', { name: 'Transforms' }).click();
      await waitForRoom(page, 'Transforms', shots);
      await page.getByText('No transforms yet.').waitFor();
      await checkRoom(watched, shots, '01-transforms-empty');

      await page.getByRole('link', { name: 'New transform' }).click();
      await waitForRoom(page, 'New transform', shots);
      await page.getByLabel('Name', { exact: true }).fill('daily_orders');
      await page.getByLabel('Target table').fill('marts.daily_orders');
      await typeSql(page, 'SELECT day, count(*) AS orders, sum(amount) AS revenue FROM raw.orders GROUP BY day');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Preview result' }).click();
      await page.getByText('Rows 1–4 of 4').waitFor();
      await checkRoom(watched, shots, '02-transform-editor');
      await page.getByRole('button', { name: 'Create transform' }).click();
      await waitForRoom(page, 'daily_orders', shots);
      await page.getByText('It has not run yet.').waitFor();
      await checkRoom(watched, shots, '02b-transform');

      await page.getByRole('link', { name: 'All transforms' }).click();
      await page.getByRole('link', { name: 'New transform' }).click();
      await waitForRoom(page, 'New transform', shots);
      await page.getByLabel('Name', { exact: true }).fill('top_days');
      await page.getByLabel('Target table').fill('marts.top_days');
      await page.getByLabel('Materialization').selectOption('incremental');
      await page.getByLabel('Unique key').fill('day');
      await typeSql(page, 'SELECT day, revenue FROM marts.daily_orders ORDER BY revenue DESC LIMIT 2');
      await page.getByRole('checkbox', { name: 'daily_orders' }).check();
      await page.getByRole('button', { name: 'Create transform' }).click();
      await waitForRoom(page, 'top_days', shots);
      await page.getByRole('definition').getByRole('link', { name: 'daily_orders' }).waitFor();

      // The graph: two nodes, one edge, neither has run.
      await page.getByRole('link', { name: 'All transforms' }).click();
      await waitForRoom(page, 'Transforms', shots);
      await node(page, 'top_days').waitFor();
      expect(await page.locator('svg.dag .dag-edge').count()).toBe(1);
      await nodeReads(page, 'daily_orders', 'daily_orders, writes marts.daily_orders: never run, stale');
      await checkRoom(watched, shots, '03-dag-never-run');

      // top_days chosen from the keyboard in the graph, run with the transform it needs.
      await node(page, 'top_days').focus();
      await page.keyboard.press('Space');
      await page.locator('svg.dag g.dag-node[data-node="top_days"][aria-checked="true"]').waitFor({ timeout: 5_000 });
      await page.getByRole('button', { name: 'Run selected (1)' }).click();
      await node(page, 'top_days').and(page.locator('.state-succeeded')).waitFor({ timeout: 60_000 });
      await node(page, 'daily_orders').and(page.locator('.state-succeeded')).waitFor();
      await nodeReads(page, 'top_days', 'top_days, writes marts.top_days: succeeded');
      expect(await queryRows(under.t, user, workspaceId, 'SELECT day FROM marts.top_days ORDER BY revenue DESC')).toEqual([{ day: 'thu' }, { day: 'wed' }]);
      await checkRoom(watched, shots, '04-dag-succeeded');

      // The run's page: each node's state, timing and rows, and the timeline.
      await page.getByRole('link', { name: 'details' }).click();
      await waitForRoom(page, 'Transform run', shots);
      const rows = page.getByRole('table', { name: 'Each transform of the run, in its order' }).getByRole('row');
      await rows.nth(2).waitFor();
      expect(await rows.count()).toBe(3);
      expect(await rows.nth(1).innerText()).toMatch(/^daily_orders\s+succeeded/);
      expect(await rows.nth(2).innerText()).toMatch(/^top_days\s+succeeded/);
      expect(await page.locator('svg.timeline .timeline-bar').count()).toBe(2);
      await checkRoom(watched, shots, '05-dag-run');

      // A transform that fails as it runs (a text that is no integer): run as the stale one, fixed, retried from the failure.
      await createTransformOk(under.t, workspaceId, user, {
        name: 'day_codes',
        sql: 'SELECT CAST(day AS integer) AS code FROM marts.daily_orders',
        target_table: 'marts.day_codes',
      });
      await page.getByRole('link', { name: 'All transforms' }).click();
      await waitForRoom(page, 'Transforms', shots);
      await node(page, 'day_codes').waitFor();
      await page.getByRole('button', { name: 'Run stale only' }).click();
      await node(page, 'day_codes').and(page.locator('.state-failed')).waitFor({ timeout: 60_000 });
      await nodeReads(page, 'daily_orders', 'daily_orders, writes marts.daily_orders: succeeded');
      await page.getByRole('link', { name: 'details' }).click();
      await waitForRoom(page, 'Transform run', shots);
      await page
        .getByRole('row', { name: /day_codes/ })
        .getByText(/integer/i)
        .first()
        .waitFor();
      await checkRoom(watched, shots, '06-dag-run-failed');

      await page
        .getByRole('row', { name: /day_codes/ })
        .getByRole('link', { name: 'day_codes' })
        .click();
      await waitForRoom(page, 'day_codes', shots);
      await typeSql(page, "SELECT CASE day WHEN 'mon' THEN 1 WHEN 'tue' THEN 2 WHEN 'wed' THEN 3 ELSE 4 END AS code FROM marts.daily_orders");
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Saved.').waitFor();
      await page.getByRole('link', { name: 'All transforms' }).click();
      await waitForRoom(page, 'Transforms', shots);
      await page.getByRole('button', { name: 'Retry from failure' }).click();
      await node(page, 'day_codes').and(page.locator('.state-succeeded')).waitFor({ timeout: 60_000 });
      const history = page.getByRole('table', { name: 'Transform runs, newest first' }).getByRole('row');
      expect(await history.count()).toBe(4);
      expect(await history.nth(1).innerText()).toContain('(retry)');
      expect(await queryRows(under.t, user, workspaceId, 'SELECT sum(code) AS total FROM marts.day_codes')).toEqual([{ total: 10 }]);

      // The workspace's schedule: a cron, with the next runs the service computed.
      await page.getByLabel('On a cron (UTC)').check();
      await page.getByLabel('Cron expression').fill('0 6 * * 1-5');
      await page.getByRole('button', { name: 'Save schedule' }).click();
      await page
        .getByRole('list', { name: 'Next runs (UTC)' })
        .getByText(/ 6:00:00 AM UTC/)
        .first()
        .waitFor();
      await checkRoom(watched, shots, '07-transforms-scheduled');
    } catch (error) {
      await page.screenshot({ path: join(shots, 'failure.png'), fullPage: true }).catch(() => undefined);
      throw error;
    } finally {
      await watched.context.close();
    }
  }, 110_000);
});
