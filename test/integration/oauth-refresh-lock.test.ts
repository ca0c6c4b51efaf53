import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../support/backends';
import type { TestApp } from '../support/test-app';
import type { TestUser } from '../support/accounts';
import { connectedId, connectThroughProvider } from '../support/oauth';
import { connectionsPath, waitForSync } from '../support/connections';
import { bodyOf } from '../support/http';
import { FakeHubSpot } from '../support/fake-crm/fake-hubspot';
import { SealedBox } from '../../src/crypto/sealed-box';
import { createLogger } from '../../src/logging/logger';
import { OAuthTokens } from '../../src/oauth/oauth-tokens';
import { ProviderClient } from '../../src/oauth/provider-client';
import { namedQuery } from '../../src/store/named-query';
import { withWorkspace } from '../support/fixtures';

const makeDue = namedQuery<{ connection_id: string }>(
  'test.oauth_token_due',
  "UPDATE oauth_tokens SET refresh_at = '2000-01-01T00:00:00.000Z' WHERE connection_id = :connection_id",
);

/**
 * Two processes asking for a connection's token when it is due, against a provider that rotates
 * refresh tokens (each works once) and answers slowly: the refresh happens once, under the token row's
 * lease, and the other process gets the new token instead of spending the dead refresh token and
 * marking the connection needs_reauth.
 */
for (const backend of backends) {
  describe(`OAuth refresh across processes (${backend})`, () => {
    let t: TestApp;
    let hubspot: FakeHubSpot;
    let user: TestUser, workspaceId: string;

    /** The service's token source as another process builds it: its own in-process lock, the same store. */
    const process = () => {
      const config = t.backend.config;
      const settings = config.oauth.hubspot;
      const client = new ProviderClient('hubspot', { ...settings, client: settings.client! }, `${config.http.publicBaseUrl}/api/v1/oauth/hubspot/callback`);
      return new OAuthTokens({
        store: t.infra.store,
        box: new SealedBox(config.secrets.encryptionKey),
        clientOf: () => client,
        clock: t.clock,
        logger: createLogger({ level: 'error' }),
      });
    };

    beforeAll(async () => {
      hubspot = new FakeHubSpot();
      hubspot.seed('contacts', 3);
      ({ t, user, workspaceId } = await withWorkspace(backend, { worker: true, env: hubspot.env(), label: `oauth-lock-${backend}` }));
    });
    afterAll(async () => {
      await t.stop();
      hubspot.stop();
    });

    test('a due token is refreshed once; both processes get the new one; the connection stays active', async () => {
      const id = connectedId(await connectThroughProvider(t, user, 'hubspot', workspaceId, 'locked_crm'));
      const [job] = await bodyOf(await t.request(`${connectionsPath(workspaceId)}/${id}/sync-jobs`, { token: user.accessToken }));
      await waitForSync(t, user, workspaceId, id, job.id);
      hubspot.oauth.rotateRefreshTokens = true;
      hubspot.oauth.refreshDelayMs = 300;
      const before = hubspot.oauth.grants.refresh_token;
      // The token's refresh time has come for everyone.
      await t.infra.store.run(makeDue, { connection_id: id });
      const connection = { id, workspaceId, connectorType: 'hubspot' };
      const [first, second, third] = await Promise.all([process().session(connection), process().session(connection), process().session(connection)]);
      expect(hubspot.oauth.grants.refresh_token).toBe(before + 1);
      expect(second!.accessToken).toBe(first!.accessToken);
      expect(third!.accessToken).toBe(first!.accessToken);
      const view = await bodyOf(await t.request(`${connectionsPath(workspaceId)}/${id}`, { token: user.accessToken }));
      expect(view.status).toBe('active');
      // The rotated refresh token is the one kept: the next refresh works.
      await t.infra.store.run(makeDue, { connection_id: id });
      const next = await process().session(connection);
      expect(next.accessToken).not.toBe(first!.accessToken);
      expect(hubspot.oauth.grants.refresh_token).toBe(before + 2);
    });
  });
}
