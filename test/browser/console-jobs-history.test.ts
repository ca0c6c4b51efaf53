import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { screenshotDir, seriousViolations, signedInPage, startConsole, typeSql, type ConsoleUnderTest } from '../support/console-browser';

/** The workbench over the query history and the cancel of a running job (ARCHITECTURE §10). */
describe('the console: query history and job cancel', () => {
  let under: ConsoleUnderTest;
  const shots = screenshotDir('console');

  beforeAll(async () => {
    under = await startConsole();
  });

  afterAll(async () => {
    await under?.stop();
  });

  const signedIn = () => signedInPage(under, 'console-jobs');

  test('a query run in the workbench is in the history, and opens in the editor again', async () => {
    const { watched } = await signedIn();
    const { page } = watched;
    await typeSql(page, 'SELECT 6 * 7 AS answer');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByText('Rows 1–1 of 1').waitFor();
    const entry = page.locator('.history-entry').filter({ hasText: 'SELECT 6 * 7 AS answer' }).first();
    await entry.waitFor();
    expect(await entry.locator('.badge').textContent()).toBe('succeeded');
    await typeSql(page, 'SELECT 1');
    await entry.getByRole('button', { name: /Open in the editor/ }).click();
    expect(await page.locator('.cm-content').innerText()).toBe('SELECT 6 * 7 AS answer');
    await page.screenshot({ path: join(shots, '14-history.png'), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    expect(watched.problems).toEqual([]);
    await watched.context.close();
  });

  test('a running job shows its progress and is cancelled', async () => {
    const { watched } = await signedIn();
    const { page } = watched;
    await typeSql(page, 'SELECT sum(a.range * b.range) AS s FROM range(200000) a, range(200000) b');
    await page.getByRole('button', { name: 'Run as job' }).click();
    await page.getByText('running', { exact: true }).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Cancel job' }).click();
    await page.getByText('The job was cancelled.').waitFor({ timeout: 60_000 });
    expect(watched.problems).toEqual([]);
    await watched.context.close();
  });
});
