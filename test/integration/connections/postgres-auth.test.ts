import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import postgres from 'postgres';
import { postgresBinDir } from '../../../scripts/setup/steps/postgres';
import type { TestUser } from '../../support/accounts';
import { connectionsPath, createConnectionOk } from '../../support/connections';
import { bodyOf } from '../../support/http';
import { PostgresPasswordCatcher } from '../../support/postgres-password-catcher';
import { startPostgresCluster, type PostgresCluster } from '../../support/services/postgres-cluster';
import type { TestApp } from '../../support/test-app';
import { withWorkspace } from '../../support/fixtures';

const toolchain = (await Bun.file(new URL('../../../toolchain.json', import.meta.url)).json()) as { postgresMajor: number };
const methods = ['scram-sha-256', 'md5', 'password'] as const;

/**
 * A Postgres source's server decides how it asks for the password; the service sends it by SCRAM
 * only. Real servers, one per method (the role's password stored as the method needs it), and a
 * server that asks for it in clear text and keeps what arrives.
 */
describe('how a Postgres source gets the password', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  const clusters = new Map<(typeof methods)[number], PostgresCluster>();
  const catchers = { cleartext: new PostgresPasswordCatcher('cleartext'), md5: new PostgresPasswordCatcher('md5') };

  beforeAll(async () => {
    const started = await Promise.all(methods.map((hostAuth) => startPostgresCluster(postgresBinDir(toolchain.postgresMajor), { hostAuth })));
    for (const [index, cluster] of started.entries()) {
      const method = methods[index]!;
      clusters.set(method, cluster);
      const admin = postgres({ host: cluster.socketDir, port: cluster.port, user: 'oxbow', database: 'postgres', max: 1, onnotice: () => {} });
      await admin.unsafe(`SET password_encryption = '${method === 'md5' ? 'md5' : 'scram-sha-256'}'`);
      await admin.unsafe("CREATE ROLE reader LOGIN PASSWORD 'the-right-one'");
      await admin.end();
    }
    ({ t, user, workspaceId } = await withWorkspace('local', { label: 'pg-auth', plan: 'enterprise' }));
  });
  afterAll(async () => {
    await t.stop();
    await Promise.all([...clusters.values()].map((cluster) => cluster.stop()));
    for (const catcher of Object.values(catchers)) catcher.stop();
  });

  let counter = 0;
  const testOf = async (port: number, password: string) => {
    const connection = await createConnectionOk(t, user, workspaceId, {
      name: `pg${++counter}`,
      connector_type: 'postgres',
      spec: { host: '127.0.0.1', port, database: 'postgres', username: 'reader', password, ssl_mode: 'disable' },
    });
    return bodyOf(await t.request(`${connectionsPath(workspaceId)}/${connection.id}/test`, { method: 'POST', token: user.accessToken }));
  };

  test('SCRAM: the right password connects, a wrong one is an authentication failure', async () => {
    const { port } = clusters.get('scram-sha-256')!;
    expect(await testOf(port, 'the-right-one')).toMatchObject({ success: true, message: 'Connected' });
    expect(await testOf(port, 'a-wrong-one')).toMatchObject({ success: false, message: expect.stringMatching(/^Authentication failed/) });
  });

  test('a real server asking for the password as MD5 or in clear text is refused, even with the right password', async () => {
    for (const method of ['md5', 'password'] as const) {
      const result = await testOf(clusters.get(method)!.port, 'the-right-one');
      expect({ method, success: result.success, message: result.message }).toEqual({ method, success: false, message: expect.stringContaining('SCRAM') });
    }
  });

  test('a server that asks for it in clear text or as MD5 never receives it', async () => {
    for (const [asks, catcher] of Object.entries(catchers)) {
      const result = await testOf(catcher.port, 'the-owners-password');
      expect({ asks, success: result.success }).toEqual({ asks, success: false });
      expect(result.message).toContain('SCRAM');
      expect(catcher.startups).toBeGreaterThan(0);
      expect(catcher.caught).toEqual([]);
    }
  });
});
