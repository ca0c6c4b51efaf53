import { expect } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { postgresBinDir } from '../../scripts/setup/steps/postgres';
import type { TestUser } from './accounts';
import { bodyOf } from './http';
import type { TestApp } from './test-app';

export function authorize(t: TestApp, user: TestUser, provider: string, workspace: string, connectionName: string): Promise<Response> {
  const query = new URLSearchParams({ workspace_id: workspace, connection_name: connectionName });
  return t.request(`/api/v1/oauth/${provider}/authorize?${query}`, { token: user.accessToken });
}

export async function authorizeOk(
  t: TestApp,
  user: TestUser,
  provider: string,
  workspace: string,
  connectionName: string,
): Promise<{ authorization_url: string; state: string; expires_at: string }> {
  const response = await authorize(t, user, provider, workspace, connectionName);
  if (response.status !== 200) throw new Error(`authorize failed: ${response.status} ${await response.text()}`);
  return bodyOf(response);
}

/** The browser's step at the provider: open the consent page, which redirects back to the service's callback. */
export async function consent(authorizationUrl: string): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const back = new URL(response.headers.get('location')!);
  return `${back.pathname}${back.search}`;
}

/** The provider's redirect followed into the service: its own redirect to the front end. */
export async function callback(t: TestApp, pathAndQuery: string): Promise<URL> {
  const response = await t.request(pathAndQuery);
  if (response.status !== 302) throw new Error(`callback answered ${response.status}: ${await response.text()}`);
  return new URL(response.headers.get('location')!);
}

/** Authorize, consent and callback: where the browser lands at the end. */
export async function connectThroughProvider(t: TestApp, user: TestUser, provider: string, workspace: string, connectionName: string): Promise<URL> {
  const { authorization_url } = await authorizeOk(t, user, provider, workspace, connectionName);
  return callback(t, await consent(authorization_url));
}

/** The connection id of a redirect to `/connections/<id>?status=connected`. */
export function connectedId(landing: URL): string {
  expect(landing.searchParams.get('status')).toBe('connected');
  const match = /\/connections\/([0-9a-f-]{36})$/.exec(landing.pathname);
  expect(match).not.toBeNull();
  return match![1]!;
}

const toolchain = (await Bun.file(new URL('../../toolchain.json', import.meta.url)).json()) as { postgresMajor: number };

/** Everything the metadata store holds, as text: the SQLite files, or a pg_dump of the database. */
export function storeContents(t: TestApp): string {
  const metadata = t.backend.config.metadata;
  if (metadata.kind === 'sqlite') {
    return [metadata.path, `${metadata.path}-wal`]
      .filter(existsSync)
      .map((file) => readFileSync(file).toString('latin1'))
      .join('\n');
  }
  const dump = Bun.spawnSync([join(postgresBinDir(toolchain.postgresMajor), 'pg_dump'), '--data-only', metadata.url]);
  if (dump.exitCode !== 0) throw new Error(dump.stderr.toString());
  return dump.stdout.toString();
}
