// The web console's page-load budget, in the tests' Chromium over real HTTP: the compressed JavaScript
// a first visit loads (the login page, then the SQL workbench with its editor), the time until the
// page can be used, and how long the workbench takes to show a 10,000-row result and page through it
// (with the longest task that blocked the page meanwhile).
import type { Browser, Page } from 'playwright-core';
import { startTestApp } from '../test/support/test-app';
import { launchChromium } from '../test/support/browser';
import { typeSql } from '../test/support/console-browser';
import { openBenchWorkspace } from './bench-workspace';
import { median, report } from './support';

const rounds = 5;
const tenThousand = "SELECT range AS n, range * 2 AS doubled, 'row ' || range AS label, range / 7.0 AS ratio FROM range(10000)";

const t = await startTestApp('local');
const { user, workspace, server } = await openBenchWorkspace(t, 'console');
const browser: Browser = await launchChromium();

interface Visit {
  jsBytes: number;
  interactiveMs: number;
}

/** Opens an address in a fresh context (an empty cache), until `ready` holds; counts the compressed JS it loaded. */
async function visit(page: Page, url: string, ready: (page: Page) => Promise<unknown>): Promise<Visit> {
  const startedAt = performance.now();
  await page.goto(url, { waitUntil: 'commit' });
  await ready(page);
  const interactiveMs = performance.now() - startedAt;
  // Resource timing from the page itself: encodedBodySize is what came over the wire, gzip included.
  const jsBytes = await page.evaluate<number>(
    `performance.getEntriesByType('resource').filter((r) => r.name.endsWith('.js')).reduce((sum, r) => sum + r.encodedBodySize, 0)`,
  );
  return { jsBytes, interactiveMs };
}

/** A fresh browser context (an empty cache) holding a console session cookie, as a returning visitor's browser would. */
async function signedInPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const login = await context.request.post(`${server.url}/api/v1/auth/console/login`, {
    headers: { 'x-oxbow-console': '1' },
    data: { email: user.email, password: user.password },
  });
  if (login.status() !== 200) throw new Error(`console login: ${login.status()}`);
  return context.newPage();
}

/** Milliseconds until the text shows, and the longest task the page ran meanwhile. */
async function until(page: Page, act: () => Promise<void>, text: string): Promise<{ ms: number; longestTaskMs: number }> {
  await page.evaluate(
    `window.__longest = 0; new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration); }).observe({ type: 'longtask' })`,
  );
  const startedAt = performance.now();
  await act();
  await page.getByText(text).waitFor({ timeout: 60_000 });
  const ms = performance.now() - startedAt;
  return { ms, longestTaskMs: await page.evaluate<number>('window.__longest') };
}

const login: Visit[] = [];
const workbench: Visit[] = [];
const grid: { run: number; longest: number; thousand: number; last: number }[] = [];
try {
  for (let round = 0; round < rounds; round++) {
    const fresh = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    login.push(await visit(await fresh.newPage(), `${server.url}/login`, (page) => page.getByRole('button', { name: 'Log in' }).waitFor()));
    await fresh.close();

    const session = await signedInPage();
    workbench.push(await visit(session, `${server.url}/workspaces/${workspace.id}/sql`, (p) => p.locator('.cm-content').waitFor()));

    await typeSql(session, tenThousand);
    const run = await until(session, () => session.getByRole('button', { name: 'Run', exact: true }).click(), 'Rows 1–100 of 10,000');
    const thousand = await until(session, async () => void (await session.getByLabel('Rows per page').selectOption('500')), 'Rows 1–500 of 10,000');
    const last = await until(session, () => session.getByRole('button', { name: 'Last' }).click(), 'Rows 9,501–10,000 of 10,000');
    grid.push({ run: run.ms, longest: Math.max(run.longestTaskMs, thousand.longestTaskMs, last.longestTaskMs), thousand: thousand.ms, last: last.ms });
    await session.context().close();
  }
} finally {
  await browser.close();
  await server.stop();
  await t.stop();
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const ms = (value: number) => value.toFixed(0);
report(
  'console',
  [
    { measure: 'first load, login page: compressed JS (KB)', median: kb(median(login.map((v) => v.jsBytes))), budget: '≤ 300' },
    { measure: 'first load, login page: usable after (ms)', median: ms(median(login.map((v) => v.interactiveMs))), budget: '≤ 1000' },
    { measure: 'workbench with its editor: compressed JS (KB)', median: kb(median(workbench.map((v) => v.jsBytes))), budget: '—' },
    { measure: 'workbench with its editor: usable after (ms)', median: ms(median(workbench.map((v) => v.interactiveMs))), budget: '—' },
    { measure: '10,000 rows: run to first page shown (ms)', median: ms(median(grid.map((g) => g.run))), budget: '—' },
    { measure: '10,000 rows: 500 rows a page (ms)', median: ms(median(grid.map((g) => g.thousand))), budget: '—' },
    { measure: '10,000 rows: last page (ms)', median: ms(median(grid.map((g) => g.last))), budget: '—' },
    { measure: '10,000 rows: longest task meanwhile (ms)', median: ms(median(grid.map((g) => g.longest))), budget: 'no freeze' },
  ],
  { rounds },
);
