import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../support/test-app';
import { createVerifiedUser } from '../support/accounts';
import { createWorkspace } from '../support/workspaces';
import { openWatched, screenshotDir, seriousViolations, startConsole, typeSql, type ConsoleUnderTest, type WatchedPage } from '../support/console-browser';

/**
 * The console over the parts of ARCHITECTURE §10 it builds on: a CSV file pushed as the push
 * endpoint's body with a progress bar, the workspace's query history, and the cancel of a running job.
 */
describe('the console: upload, history and job cancel', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let under: ConsoleUnderTest;
  let files: string;
  const shots = screenshotDir('console');

  beforeAll(async () => {
    under = await startConsole();
    ({ t, browser, base } = under);
    files = mkdtempSync(join(tmpdir(), 'oxbow-console-upload-'));
  });

  afterAll(async () => {
    await under?.stop();
    rmSync(files, { recursive: true, force: true });
  });

  async function signedIn(): Promise<{ watched: WatchedPage; workspaceId: string }> {
    const user = await createVerifiedUser(t, 'console-upload');
    const { id } = await createWorkspace(t, user);
    const watched = await openWatched(browser);
    await watched.page.goto(`${base}/login`);
    await watched.page.getByLabel('E-mail').fill(user.email);
    await watched.page.getByLabel('Password').fill(user.password);
    await watched.page.getByRole('button', { name: 'Log in' }).click();
    await watched.page.getByRole('heading', { level: 1, name: 'SQL workbench' }).waitFor();
    return { watched, workspaceId: id };
  }


  test('a CSV file uploads into a table with a progress bar, and is queried and found in the history', async () => {
    const { watched, workspaceId } = await signedIn();
    const { page } = watched;
    const csv = ['city,visits,day', ...Array.from({ length: 50_000 }, (_, i) => `city-${i % 97},${i},2026-01-${String((i % 28) + 1).padStart(2, '0')}`)].join('\n');
    const path = join(files, 'visits.csv');
    writeFileSync(path, `${csv}\n`);

    await page.goto(`${base}/workspaces/${workspaceId}/tables`);
    await page.getByRole('heading', { level: 1, name: 'Tables' }).waitFor();
    await page.getByLabel('File').setInputFiles(path);
    expect(await page.getByLabel('Table', { exact: true }).inputValue()).toBe('uploads.visits');
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByText('50,000 records written to').waitFor({ timeout: 60_000 });
    await page.getByRole('link', { name: 'uploads.visits' }).waitFor();
    await page.screenshot({ path: join(shots, '13-upload.png'), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto(`${base}/workspaces/${workspaceId}/sql`);
    await typeSql(page, 'SELECT city, sum(visits) AS visits FROM uploads.visits GROUP BY city ORDER BY city');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByText('Rows 1–97 of 97').waitFor();
    const history = page.locator('.history-entry').filter({ hasText: 'FROM uploads.visits' });
    await history.first().waitFor();
    expect(await history.first().locator('.badge').textContent()).toBe('succeeded');
    await page.screenshot({ path: join(shots, '14-history.png'), fullPage: true });
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
