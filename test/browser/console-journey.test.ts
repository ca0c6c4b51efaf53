import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import { latestMailTo, uniqueEmail } from '../support/accounts';
import { pushOk } from '../support/lake';
import { eventually } from '../support/eventually';
import { checkRoom, openWatched, screenshotDir, startConsole, typeSql, waitForRoom, type ConsoleUnderTest, type WatchedPage } from '../support/console-browser';

const password = 'a long console password';

/**
 * The console in Chromium, as a new person meets it: sign up, open the verification link from the
 * mail, log in, make a workspace, query in the workbench, run the query as a job and download its
 * result, invite someone who signs up through the invitation's link, make and reveal an API key.
 * Every room passes axe-core with no serious or critical violation, nothing breaks the page's
 * policy, and each room is kept as a screenshot.
 */
describe('the web console in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let under: ConsoleUnderTest;
  const shots = screenshotDir('console');

  beforeAll(async () => {
    under = await startConsole();
    ({ t, browser, base } = under);
  });

  afterAll(async () => {
    await under?.stop();
  });

  /** The room is accessible (axe-core: nothing serious or critical) and kept as a screenshot. */
  const check = (watched: WatchedPage, name: string) => checkRoom(watched, shots, name);

  async function linkFromMail(to: string, pattern: RegExp): Promise<string> {
    const mail = await latestMailTo(t, to);
    const link = pattern.exec(mail?.text ?? '')?.[0];
    if (!link) throw new Error(`no link in the mail to ${to}: ${mail?.text}`);
    return link;
  }

  /** Waits for the room with that title; on a timeout, says what the page showed instead. */
  const heading = (page: Page, text: string | RegExp) => waitForRoom(page, text, shots);

  async function signUpAndVerify(watched: WatchedPage, email: string, via: string): Promise<void> {
    const { page } = watched;
    await page.goto(via);
    await heading(page, /Create your Oxbow account/);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await heading(page, 'Check your inbox');
    const link = await linkFromMail(email, /http\S+\/verify-email\?token=\S+/);
    expect(link.startsWith(`${base}/verify-email?token=`)).toBe(true);
    await page.goto(link);
    await page.getByText('Your e-mail address is verified.').waitFor();
  }

  async function logIn(page: Page, email: string): Promise<void> {
    await page.goto(`${base}/login`);
    await heading(page, 'Log in to Oxbow');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
  }

  test('a new person signs up, verifies, logs in, queries, runs a job, downloads, invites and makes an API key', async () => {
    const owner = await openWatched(browser);
    try {
      await journey(owner);
    } catch (error) {
      await owner.page.screenshot({ path: join(shots, 'failure.png'), fullPage: true }).catch(() => undefined);
      throw error;
    }
  });

  async function journey(owner: WatchedPage): Promise<void> {
    const { page } = owner;
    const email = uniqueEmail('console-owner');

    await signUpAndVerify(owner, email, `${base}/signup`);
    await check(owner, '01-verified');
    await page.getByRole('link', { name: 'Log in' }).click();
    await heading(page, 'Log in to Oxbow');
    await check(owner, '02-login');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();

    await heading(page, 'Create your first workspace');
    await check(owner, '03-first-workspace');
    await page.getByLabel('Name').fill('Sales lab');
    expect(await page.getByLabel('Slug').inputValue()).toBe('sales-lab');
    const slug = `sales-lab-${Date.now().toString(36)}`;
    await page.getByLabel('Slug').fill(slug);
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await heading(page, 'SQL workbench');
    const workspaceId = /\/workspaces\/([^/]+)\/sql/.exec(page.url())?.[1] ?? '';
    expect(workspaceId).toMatch(/^[0-9a-f-]{36}$/);

    // A program pushes records through the API, as the CLI or a script would.
    const login = await bodyOf(await t.request('/api/v1/auth/login', { method: 'POST', json: { email, password } }));
    await pushOk(
      t,
      workspaceId,
      { email, password, accessToken: login.access_token, refreshToken: login.refresh_token, userId: '' },
      {
        table: 'shop.sales',
        records: Array.from({ length: 24 }, (_, i) => ({
          month: `2026-${String((i % 12) + 1).padStart(2, '0')}`,
          region: i < 12 ? 'north' : 'south',
          revenue: 100 + i * 7,
        })),
      },
    );

    // The workbench completes the workspace's tables and columns.
    await page.reload();
    await heading(page, 'SQL workbench');
    await page.locator('.cm-content').waitFor();
    await typeSql(page, 'SELECT region, sum(revenue) AS revenue FROM shop.');
    // The tables may arrive after the typing on a busy machine: ask for completions again, as a person would.
    const completion = page.locator('.cm-tooltip-autocomplete').getByText('sales').first();
    for (let tries = 0; tries < 30 && !(await completion.isVisible()); tries++) {
      await page.keyboard.press('Control+Space');
      await completion.waitFor({ timeout: 1_000 }).catch(() => {});
    }
    await completion.waitFor();
    await page.keyboard.press('Escape');

    await typeSql(page, 'SELECT month, region, revenue FROM shop.sales ORDER BY month, region');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByText('Rows 1–24 of 24').waitFor();
    expect(await page.locator('.results table tbody tr').count()).toBe(24);
    await check(owner, '04-workbench-result');

    await page.getByRole('button', { name: 'Chart' }).click();
    expect(
      await eventually(
        () => page.locator('.chart-area svg path').count(),
        (count) => count > 24,
        15_000,
      ),
    ).toBeGreaterThan(24);
    await check(owner, '05-workbench-chart');

    // An error is marked where it is in the SQL.
    await typeSql(page, 'SELECT month, revenue\nFROM shop.sales WHERE revenue >');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.locator('.query-error').getByRole('alert').waitFor();
    await page.getByRole('button', { name: 'Go to the error' }).waitFor();
    expect(await page.locator('.query-error').innerText()).toMatch(/At line 2, column 32\./);
    // The end of the input: a point marker in the editor, its line flagged in the gutter.
    await page.locator('.cm-lintPoint-error, .cm-lintRange-error').first().waitFor({ state: 'attached' });
    await page.locator('.cm-lint-marker-error').waitFor();
    await check(owner, '06-workbench-error');

    await typeSql(page, 'SELECT month, region, revenue FROM shop.sales');
    await page.getByRole('button', { name: 'Estimate' }).click();
    await page.getByText('Scans at most').waitFor();

    // Ten thousand rows page through the grid; the same query as a job, its CSV downloaded.
    await typeSql(page, 'SELECT range AS n, range * 2 AS doubled FROM range(10000)');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByText('Rows 1–100 of 10,000').waitFor();
    await page.getByRole('button', { name: 'Last' }).first().click();
    await page.getByText('Rows 9,901–10,000 of 10,000').waitFor();

    await page.getByRole('button', { name: 'Run as job' }).click();
    await page.getByText('succeeded', { exact: true }).first().waitFor({ timeout: 60_000 });
    await page.getByText('Rows 1–100 of 10,000').waitFor();
    await check(owner, '07-workbench-job');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(csv[0]).toBe('n,doubled');
    expect(csv).toHaveLength(10_001);
    expect(csv[10_000]).toBe('9999,19998');

    // The table browser: sizes, columns, snapshots, a preview.
    await page.getByRole('link', { name: 'Tables' }).click();
    await heading(page, 'Tables');
    await page.getByRole('link', { name: 'shop.sales' }).click();
    await heading(page, 'shop.sales');
    await page.getByRole('cell', { name: 'revenue' }).first().waitFor();
    await page
      .getByRole('cell', { name: /^created/ })
      .first()
      .waitFor();
    await page.getByText(/Rows 1–24 of 24/).waitFor();
    await check(owner, '08-table-detail');

    // Settings: invite someone who has no account yet.
    await page.getByRole('link', { name: 'Settings' }).click();
    await heading(page, /Settings of Sales lab/);
    const invitee = uniqueEmail('console-invitee');
    await page.getByLabel('E-mail').fill(invitee);
    await page.getByLabel('Role').selectOption('MEMBER');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByText(`${invitee} was invited.`).waitFor();
    await check(owner, '09-settings');

    const guest = await openWatched(browser, { width: 390, height: 844 });
    const invitation = await linkFromMail(invitee, /http\S+\/signup\?email=\S+/);
    await guest.page.goto(invitation);
    await heading(guest.page, /Create your Oxbow account/);
    expect(await guest.page.getByLabel('E-mail').inputValue()).toBe(invitee);
    await check(guest, '10-invitation-signup-narrow');
    await signUpAndVerify(guest, invitee, invitation);
    await logIn(guest.page, invitee);
    await heading(guest.page, 'SQL workbench');
    expect(await guest.page.locator('#workspace-switcher option:checked').textContent()).toBe('Sales lab');
    await guest.context.close();

    await page.reload();
    await page.getByRole('cell', { name: invitee, exact: true }).waitFor();
    expect(
      await page
        .getByRole('row', { name: new RegExp(invitee) })
        .getByText('Active')
        .count(),
    ).toBe(1);

    // API keys: made, shown once, revealed again with the password.
    await page.getByRole('link', { name: 'API keys' }).click();
    await heading(page, 'API keys');
    await page.getByLabel('Name').fill('nightly report');
    await page.getByRole('button', { name: 'Create key' }).click();
    const created = await page.getByLabel('Key nightly report').inputValue();
    expect(created).toMatch(/^oxb_[A-Za-z0-9]{30,}$/);
    await page.reload();
    await heading(page, 'API keys');
    await page.getByRole('button', { name: 'Reveal nightly report' }).click();
    await page.getByLabel('Your password').fill(password);
    await page.getByRole('button', { name: 'Reveal', exact: true }).click();
    expect(await page.getByLabel('Key nightly report').inputValue()).toBe(created);
    await check(owner, '11-api-keys');

    const executed = await t.request('/api/v1/execute', {
      method: 'POST',
      json: { sql: 'SELECT count(*) AS n FROM shop.sales', workspace_id: workspaceId },
      headers: { 'x-api-key': created },
    });
    expect((await bodyOf(executed)).rows).toEqual([[24]]);

    await page.getByRole('link', { name: 'Account' }).click();
    await heading(page, 'Your account');
    await check(owner, '12-account');
    await page.getByRole('button', { name: 'Log out', exact: true }).click();
    await heading(page, 'Log in to Oxbow');
    await owner.context.close();
  }
});
