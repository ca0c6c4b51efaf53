// npm test: heavy, it drives Chromium through the login.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync, statSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { parse } from 'smol-toml';
import { bodyOf } from '../../support/http';
import { createVerifiedUser, type TestUser } from '../../support/accounts';
import { CliHome, expectExit, startCliService, userWithKey } from '../../support/cli';

/** Debian's Chromium, installed by the set-up (never a browser build of Playwright's own). */
const chromiumPath = '/usr/bin/chromium';

describe('oxbow login, logout, whoami and profiles', () => {
  let service: Awaited<ReturnType<typeof startCliService>>;
  let browser: Browser;
  let user: TestUser;
  beforeAll(async () => {
    service = await startCliService();
    user = await createVerifiedUser(service.t, 'cli-login');
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });

  /** The address `oxbow login` prints on standard error, read as it comes. */
  async function loginAddress(stderr: ReadableStream<Uint8Array>): Promise<{ url: string; rest: Promise<string> }> {
    const reader = stderr.getReader();
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`login ended before printing its address: ${text}`);
      text += new TextDecoder().decode(value);
      const match = /Log in at: (\S+)/.exec(text);
      if (match) {
        const rest = (async () => {
          for (;;) {
            const next = await reader.read();
            if (next.done) return text;
            text += new TextDecoder().decode(next.value);
          }
        })();
        return { url: match[1]!, rest };
      }
    }
  }

  test('the browser login, driven in Chromium: the state is checked, the key stored with mode 0600, then used and revoked', async () => {
    const home = new CliHome(service.server.url);
    try {
      const login = home.spawn(['login', '--no-browser']);
      const { url, rest } = await loginAddress(login.stderr);
      const address = new URL(url);
      expect(address.origin).toBe(service.server.url);
      expect(address.pathname).toBe('/api/v1/auth/cli-login');
      const state = address.searchParams.get('state')!;
      expect(state.length).toBeGreaterThanOrEqual(32);
      const callback = `http://127.0.0.1:${address.searchParams.get('callback_port')}/callback`;

      // A callback that does not carry the login's state is refused, and the CLI keeps waiting.
      const forged = await fetch(`${callback}?key=oxb_planted&state=${encodeURIComponent(`${state.slice(0, -1)}x`)}`);
      expect(forged.status).toBe(400);

      const page = await (await browser.newContext()).newPage();
      await page.goto(url);
      await page.fill('input[name=email]', user.email);
      await page.fill('input[name=password]', 'wrong password');
      await page.click('button[type=submit]');
      await page.waitForSelector('[role=alert]');
      expect(await page.content()).toContain('Incorrect e-mail or password');
      await page.fill('input[name=password]', user.password);
      await page.click('button[type=submit]');
      await page.waitForURL(/127\.0\.0\.1:\d+\/callback/);
      expect(await page.textContent('h1')).toBe('Logged in');
      await page.context().close();

      expect(await login.exited).toBe(0);
      expect(await rest).toContain(`as ${user.email}`);
      expect(statSync(home.configFile).mode & 0o777).toBe(0o600);
      const config = parse(readFileSync(home.configFile, 'utf8')) as {
        current_profile: string;
        profiles: Record<string, { url: string; api_key: string; key_from_login: boolean }>;
      };
      expect(config.current_profile).toBe('default');
      expect(config.profiles.default!.url).toBe(service.server.url);
      expect(config.profiles.default!.api_key).toMatch(/^oxb_/);
      expect(config.profiles.default!.api_key).not.toBe('oxb_planted');

      const whoami = expectExit(await home.run(['whoami', '--json'], { env: { OXBOW_URL: '' } }), 0);
      expect(JSON.parse(whoami.stdout).user.email).toBe(user.email);
      expect(statSync(`${home.dir}/cache/oxbow/access-tokens.json`).mode & 0o777).toBe(0o600);

      // Logging out revokes the key the browser login made: it no longer works anywhere.
      const key = config.profiles.default!.api_key;
      expectExit(await home.run(['logout']), 0);
      expect((await fetch(`${service.server.url}/api/v1/auth/session-token`, { method: 'POST', headers: { 'x-api-key': key } })).status).toBe(401);
      const after = await home.run(['whoami']);
      expect(after.code).toBe(3);
      expect(after.stderr).toContain('oxbow login');
    } finally {
      home.remove();
    }
  });

  test('--api-key and OXBOW_API_KEY for CI; a wrong key is refused with exit status 3', async () => {
    const home = new CliHome(service.server.url);
    try {
      const { user: ci, key } = await userWithKey(service.t, 'cli-ci');
      const stored = expectExit(await home.run(['login', '--api-key', '-', '--json'], { stdin: `${key}\n` }), 0);
      expect(JSON.parse(stored.stdout).user.email).toBe(ci.email);
      // A key given by hand is forgotten on logout, not revoked.
      expectExit(await home.run(['logout']), 0);
      expect((await fetch(`${service.server.url}/api/v1/auth/session-token`, { method: 'POST', headers: { 'x-api-key': key } })).status).toBe(200);

      const fromEnv = expectExit(await home.run(['whoami'], { env: { OXBOW_API_KEY: key } }), 0);
      expect(fromEnv.stdout).toContain(`email\t${ci.email}`);
      const wrong = await home.run(['whoami', '--json'], { env: { OXBOW_API_KEY: 'oxb_not_a_real_key' } });
      expect(wrong.code).toBe(3);
      expect(JSON.parse(wrong.stderr).error).toMatchObject({ exit_code: 3, status: 401 });
    } finally {
      home.remove();
    }
  });

  test('profiles: several services side by side, OXBOW_PROFILE and --profile choose', async () => {
    const home = new CliHome(service.server.url);
    try {
      const first = await userWithKey(service.t, 'cli-p1');
      const second = await userWithKey(service.t, 'cli-p2');
      expectExit(await home.run(['login', '--api-key', first.key, '--url', service.server.url], { env: { OXBOW_URL: '' } }), 0);
      expectExit(await home.run(['--profile', 'other', 'login', '--api-key', second.key, '--url', service.server.url], { env: { OXBOW_URL: '' } }), 0);
      const list = expectExit(await home.run(['profiles', 'ls'], { env: { OXBOW_URL: '' } }), 0);
      expect(list.stdout.split('\n').filter(Boolean)).toEqual([`*\tdefault\t${service.server.url}\ttrue\t`, `\tother\t${service.server.url}\ttrue\t`]);
      expect((await home.run(['whoami'], { env: { OXBOW_URL: '', OXBOW_PROFILE: 'other' } })).stdout).toContain(second.user.email);
      expectExit(await home.run(['profiles', 'use', 'other']), 0);
      expect((await home.run(['whoami'], { env: { OXBOW_URL: '' } })).stdout).toContain(second.user.email);
      expect((await home.run(['whoami', '--profile', 'default'], { env: { OXBOW_URL: '' } })).stdout).toContain(first.user.email);
      expectExit(await home.run(['profiles', 'rm', 'other']), 0);
      expect((await home.run(['profiles', 'use', 'other'])).code).toBe(5);
      const keys = await bodyOf(await service.t.request('/api/v1/auth/api-keys', { token: second.user.accessToken }));
      expect(keys).toHaveLength(1);
    } finally {
      home.remove();
    }
  });
});
