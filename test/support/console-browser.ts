import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './browser';
import { projectRoot } from '../../scripts/setup/toolchain';
import { startHttpServer, type HttpServer } from '../../src/api/server';
import { freePort } from '../../src/process/ports';
import { startTestApp, type TestApp } from './test-app';
import { expect } from 'bun:test';
import { createVerifiedUser, type TestUser } from './accounts';
import { createWorkspace } from './workspaces';

/** axe-core's browser build from node_modules, evaluated in the page (never loaded from elsewhere). */
const axeSource = readFileSync(join(projectRoot, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; html: string }[];
}

/**
 * Where screenshots go: OXBOW_SCREENSHOTS_DIR when set, otherwise test/artifacts/<suite> (git-ignored),
 * kept after the run for a person to look at.
 */
export function screenshotDir(suite: string): string {
  const dir = process.env.OXBOW_SCREENSHOTS_DIR ? join(process.env.OXBOW_SCREENSHOTS_DIR, suite) : join(projectRoot, 'test', 'artifacts', suite);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A page whose script errors and policy violations are collected; the test fails on any. */
export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  problems: string[];
}

export async function openWatched(browser: Browser, options: { width?: number; height?: number } = {}): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    // A 4xx the console expects (a wrong password, no session cookie yet) is logged by the browser as a failed resource.
    if (message.type() === 'error' && !/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text()))
      problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return { page, context, problems };
}

/** axe-core's serious and critical violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(`${axeSource}\n;0`);
  const violations = await page.evaluate<AxeViolation[]>(`(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, html: n.html.slice(0, 200) })) }));
  })()`);
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

export interface ConsoleUnderTest {
  t: TestApp;
  server: HttpServer;
  browser: Browser;
  /** The service's address, which its mail links carry too (PUBLIC_BASE_URL). */
  base: string;
  stop(): Promise<void>;
}

/** The service with a worker, listening on a free port that its own links name, and Chromium; `env` adds to the service's settings (a fake provider's). */
export async function startConsole(options: { env?: Record<string, string> } = {}): Promise<ConsoleUnderTest> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await startTestApp('local', { worker: true, env: { ...options.env, PUBLIC_BASE_URL: base } });
  const server = startHttpServer(t.app, { host: '127.0.0.1', port });
  const browser = await launchChromium();
  return {
    t,
    server,
    browser,
    base,
    async stop() {
      await browser.close();
      await server.stop();
      await t.stop();
    },
  };
}

/** Replaces the SQL editor's text, as a paste would (typing would open completions on the way). */
export async function typeSql(page: Page, sql: string): Promise<void> {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(sql);
}

/** A new verified person with a workspace, logged in to the console in a fresh page (which opens the workbench). */
export async function signedInPage(under: ConsoleUnderTest, label: string): Promise<{ watched: WatchedPage; workspaceId: string; user: TestUser }> {
  const user = await createVerifiedUser(under.t, label);
  const { id } = await createWorkspace(under.t, user);
  const watched = await openWatched(under.browser);
  await watched.page.goto(`${under.base}/login`);
  await watched.page.getByLabel('E-mail').fill(user.email);
  await watched.page.getByLabel('Password').fill(user.password);
  await watched.page.getByRole('button', { name: 'Log in' }).click();
  await watched.page.getByRole('heading', { level: 1, name: 'SQL workbench' }).waitFor();
  return { watched, workspaceId: id, user };
}

/**
 * Checks a room as it is now and keeps it as a screenshot: axe-core finds nothing serious or
 * critical, and the page logged no script error or policy violation so far.
 */
export async function checkRoom(watched: WatchedPage, shots: string, name: string): Promise<void> {
  const { page } = watched;
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  const violations = await seriousViolations(page);
  expect({ room: name, violations }).toEqual({ room: name, violations: [] });
  expect({ room: name, problems: watched.problems }).toEqual({ room: name, problems: [] });
}

/** Waits for the room with that title; on a timeout, says what the page showed instead (and keeps it as failure.png). */
export async function waitForRoom(page: Page, title: string | RegExp, shots: string, timeout = 30_000): Promise<void> {
  try {
    await page.getByRole('heading', { level: 1, name: title }).waitFor({ timeout });
  } catch (error) {
    await page.screenshot({ path: join(shots, 'failure.png'), fullPage: true }).catch(() => undefined);
    throw new Error(`no heading ${title} at ${page.url()}; the page shows: ${(await page.locator('body').innerText()).slice(0, 1500)}`, { cause: error });
  }
}
