import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Subprocess } from 'bun';
import { startHttpServer, type HttpServer } from '../../src/api/server';
import { bodyOf } from './http';
import { createVerifiedUser, type TestUser } from './accounts';
import { startTestApp, type TestApp } from './test-app';
import type { EnvSource } from '../../src/config';

/** The binary the set-up compiled (the test run's set-up builds it first). */
export const oxbowBinary = resolve(import.meta.dir, '..', '..', '.tools', 'bin', 'oxbow');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A person's machine for the command line: a home of its own (config and token cache inside it),
 * pointed at a service listening on a real port.
 */
export class CliHome {
  readonly dir = mkdtempSync(join(tmpdir(), 'oxbow-cli-home-'));

  constructor(readonly url: string) {}

  get configFile(): string {
    return join(this.dir, 'config', 'oxbow', 'config.toml');
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: this.dir,
      XDG_CONFIG_HOME: join(this.dir, 'config'),
      XDG_CACHE_HOME: join(this.dir, 'cache'),
      OXBOW_URL: this.url,
      ...extra,
    };
  }

  spawn(args: string[], options: { env?: Record<string, string>; stdin?: string } = {}): Subprocess<'pipe', 'pipe', 'pipe'> {
    const child = Bun.spawn([oxbowBinary, ...args], { env: this.env(options.env), stdin: 'pipe', stdout: 'pipe', stderr: 'pipe', cwd: this.dir });
    if (options.stdin !== undefined) void child.stdin.write(options.stdin);
    void child.stdin.end();
    return child;
  }

  async run(args: string[], options: { env?: Record<string, string>; stdin?: string } = {}): Promise<CliResult> {
    const child = this.spawn(args, options);
    const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    return { code, stdout, stderr };
  }

  /** Runs the command on a real pseudo-terminal (util-linux `script`), `columns` wide: what a person sees. */
  async runInTerminal(args: string[], columns: number, env: Record<string, string> = {}): Promise<CliResult> {
    const quoted = [oxbowBinary, ...args].map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
    const child = Bun.spawn(['script', '-q', '-e', '-c', `stty cols ${columns} rows 40; exec ${quoted}`, '/dev/null'], {
      env: { ...this.env(env), TERM: 'xterm' },
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
      cwd: this.dir,
    });
    const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    return { code, stdout, stderr };
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Fails with the command's own output when it did not exit as expected. */
export function expectExit(result: CliResult, code: number): CliResult {
  if (result.code !== code) throw new Error(`exit ${result.code}, expected ${code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
  return result;
}

/** The service on a real port (the CLI is a separate process), with a worker for jobs, syncs and transforms. */
export async function startCliService(env: EnvSource = {}): Promise<{ t: TestApp; server: HttpServer; stop(): Promise<void> }> {
  const t = await startTestApp('local', { worker: true, env });
  const server = startHttpServer(t.app, { host: '127.0.0.1', port: 0 });
  return {
    t,
    server,
    async stop() {
      await server.stop();
      await t.stop();
    },
  };
}

/** A verified user with an API key, as `oxbow login --api-key` would be given one. */
export async function userWithKey(t: TestApp, label = 'cli'): Promise<{ user: TestUser; key: string }> {
  const user = await createVerifiedUser(t, label);
  const response = await t.request('/api/v1/auth/api-keys', { method: 'POST', json: { name: 'cli tests' }, token: user.accessToken });
  if (response.status !== 201) throw new Error(`api key: ${response.status}`);
  return { user, key: (await bodyOf(response)).key };
}
