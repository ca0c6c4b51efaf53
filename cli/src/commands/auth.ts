import type { Command } from '@commander-js/extra-typings';
import { ApiClient } from '../api/api-client';
import { TokenCache } from '../api/token-cache';
import { readConfig } from '../config/config-file';
import { updateProfile } from '../config/settings';
import { CommandContext, type GlobalOptions } from '../context';
import { CliError, exitCodes } from '../exit-codes';
import { openBrowser, startBrowserLogin } from '../login/browser-login';

interface User {
  id: string;
  email: string;
  name: string | null;
}

interface ApiKey {
  id: string;
  name: string;
  prefix: string;
}

export function registerAuth(program: Command<[], GlobalOptions>): void {
  program
    .command('login')
    .description('Log in: in the browser (the default), or with an API key for CI')
    .option('--url <url>', 'the service, e.g. https://oxbow.example.com (saved in the profile)')
    .option('--api-key <key>', 'log in with this API key instead of the browser ("-" reads it from standard input)')
    .option('--no-browser', 'print the login address instead of opening a browser')
    .option('--timeout <seconds>', 'how long to wait for the browser login', '300')
    .action(async (options, command) => {
      const globals = command.optsWithGlobals();
      const ctx = CommandContext.from(globals);
      const url = (options.url ?? ctx.settings.url).replace(/\/+$/, '');
      const given = options.apiKey === '-' ? (await Bun.stdin.text()).trim() : (options.apiKey ?? (process.env.OXBOW_API_KEY?.trim() || undefined));
      const key = given ?? (await loginInBrowser(ctx, url, options.browser, Number(options.timeout) * 1000));
      const me = await new ApiClient(url, key, TokenCache.forEnvironment()).get<User>('/auth/me');
      updateProfile(ctx.settings, (profile, config) => {
        config.current_profile ??= ctx.settings.profileName;
        return { ...profile, url, api_key: key, key_from_login: given === undefined };
      });
      ctx.out.note(`Logged in to ${url} as ${me.email} (profile "${ctx.settings.profileName}")`);
      if (ctx.out.mode === 'json') ctx.out.json({ profile: ctx.settings.profileName, url, user: me });
    });

  program
    .command('logout')
    .description('Forget the profile’s key (and revoke it on the service when `oxbow login` made it)')
    .option('--keep-key', 'do not revoke the key on the service')
    .action(async (options, command) => {
      const ctx = CommandContext.from(command.optsWithGlobals());
      const key = ctx.settings.apiKey;
      if (!key) throw new CliError(`Profile "${ctx.settings.profileName}" is not logged in`, exitCodes.auth);
      let revoked = false;
      const fromLogin = readConfig(ctx.settings.configFile).profiles[ctx.settings.profileName]?.key_from_login;
      if (fromLogin && !options.keepKey) revoked = await revokeKey(ctx, key);
      TokenCache.forEnvironment().forget(ctx.settings.url, key);
      updateProfile(ctx.settings, (profile) => {
        const { api_key: _key, key_from_login: _from, ...rest } = profile;
        return rest;
      });
      ctx.out.note(`Logged out of profile "${ctx.settings.profileName}"${revoked ? '; the key was revoked' : ''}`);
      if (ctx.out.mode === 'json') ctx.out.json({ profile: ctx.settings.profileName, revoked });
    });

  program
    .command('whoami')
    .description('Who the profile is logged in as, where, and in which workspace')
    .action(async (_options, command) => {
      const ctx = CommandContext.from(command.optsWithGlobals());
      const me = await ctx.api.get<User>('/auth/me');
      const workspaceId = await ctx.workspaceId().catch(() => null);
      ctx.out.record(
        [
          ['User', 'email', me.email],
          ['Profile', 'profile', ctx.settings.profileName],
          ['Service', 'url', ctx.settings.url],
          ['Workspace', 'workspace_id', workspaceId],
        ],
        { user: me, profile: ctx.settings.profileName, url: ctx.settings.url, workspace_id: workspaceId },
      );
    });
}

async function loginInBrowser(ctx: CommandContext, url: string, openIt: boolean, timeoutMs: number): Promise<string> {
  const login = startBrowserLogin(url, timeoutMs);
  try {
    // Always printed, on standard error: the way in when no browser opens (a remote shell, a test).
    process.stderr.write(`Log in at: ${login.url}\n`);
    if (openIt) openBrowser(login.url);
    ctx.out.note('Waiting for the browser…');
    return await login.key;
  } finally {
    await login.stop();
  }
}

async function revokeKey(ctx: CommandContext, key: string): Promise<boolean> {
  const keys = await ctx.api.get<ApiKey[]>('/auth/api-keys', { limit: 200 });
  const mine = keys.filter((entry) => key.startsWith(entry.prefix));
  if (mine.length !== 1) return false;
  await ctx.api.request('DELETE', `/auth/api-keys/${mine[0]!.id}`);
  return true;
}
