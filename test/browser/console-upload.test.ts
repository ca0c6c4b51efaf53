import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { screenshotDir, seriousViolations, signedInPage, startConsole, typeSql, type ConsoleUnderTest } from '../support/console-browser';

/** A CSV file uploaded in the console: sent as the push endpoint's body, with a progress bar, then queried. */
describe('the console: a file upload', () => {
  let base: string;
  let under: ConsoleUnderTest;
  let files: string;
  const shots = screenshotDir('console');

  beforeAll(async () => {
    under = await startConsole();
    base = under.base;
    files = mkdtempSync(join(tmpdir(), 'oxbow-console-upload-'));
  });

  afterAll(async () => {
    await under?.stop();
    rmSync(files, { recursive: true, force: true });
  });

  const signedIn = () => signedInPage(under, 'console-upload');

  test('a CSV file uploads into a table with a progress bar and is queried in the workbench', async () => {
    const { watched, workspaceId } = await signedIn();
    const { page } = watched;
    const csv = ['city,visits,day', ...Array.from({ length: 50_000 }, (_, i) => `city-${i % 97},${i},2026-01-${String((i % 28) + 1).padStart(2, '0')}`)].join(
      '\n',
    );
    const path = join(files, 'visits.csv');
    writeFileSync(path, `${csv}\n`);

    await page.goto(`${base}/workspaces/${workspaceId}/tables`);
    await page.getByRole('heading', { level: 1, name: 'Tables' }).waitFor();
    await page.getByLabel('File', { exact: true }).setInputFiles(path);
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
    expect(watched.problems).toEqual([]);
    await watched.context.close();
  });
});
