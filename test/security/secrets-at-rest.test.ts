import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { backends } from '../support/backends';
import { startTestApp, type TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import { createVerifiedUser, tokenFromMail } from '../support/accounts';
import { postgresBinDir } from '../../scripts/setup/steps/postgres';

const toolchain = (await Bun.file(new URL('../../toolchain.json', import.meta.url)).json()) as { postgresMajor: number };

/** Everything the metadata store holds, as bytes: the SQLite files, or a pg_dump of the database. */
function storeContents(t: TestApp): string {
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

for (const backend of backends) {
  describe(`secrets at rest on ${backend}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(backend);
    });
    afterAll(() => t.stop());

    test('no password, token, code or API key appears in clear in the database or the logs', async () => {
      const password = `Known-Password-${crypto.randomUUID()}`;
      const user = await createVerifiedUser(t, 'secret-keeper', password);
      const apiKey = (await bodyOf(await t.request('/api/v1/auth/api-keys', { method: 'POST', json: { name: 'grep me' }, token: user.accessToken }))).key;
      const { code } = await bodyOf(await t.request('/api/v1/auth/session-code', { method: 'POST', token: user.accessToken }));
      await t.request('/api/v1/auth/forgot-password', { method: 'POST', json: { email: user.email } });
      const resetToken = await tokenFromMail(t, user.email);
      await t.request('/api/v1/auth/login', { method: 'POST', json: { email: user.email, password: 'a wrong guess for the log' } });
      await t.request(`/api/v1/auth/api-keys/${crypto.randomUUID()}/reveal`, { method: 'POST', json: { password }, token: user.accessToken });

      const secrets = { password, apiKey, apiKeyBody: apiKey.slice(12), refreshToken: user.refreshToken, accessToken: user.accessToken, code, resetToken };
      const database = storeContents(t);
      const logs = t.logLines.join('\n');
      expect(database).toContain(user.email);
      for (const [name, secret] of Object.entries(secrets)) {
        expect({ name, inDatabase: database.includes(secret) }).toEqual({ name, inDatabase: false });
        expect({ name, inLogs: logs.includes(secret) }).toEqual({ name, inLogs: false });
      }
    });
  });
}
