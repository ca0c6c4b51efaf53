import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { checkRoom, screenshotDir, signedInPage, startConsole, waitForRoom, type ConsoleUnderTest } from '../support/console-browser';
import { queryRows } from '../support/connections';
import { FakeHubSpot } from '../support/fake-crm/fake-hubspot';
import { useBusinessPlan } from '../support/workspaces';

/**
 * HubSpot through the console against a local server that speaks HubSpot's OAuth and CRM API: the
 * button, the provider's consent, the service's callback, back on the connection's page, its first
 * sync, the tables; a revoked grant shown as needing authorization and authorized again; a refused
 * consent said on the page the callback lands on.
 */
describe('the console: connecting HubSpot over OAuth', () => {
  let under: ConsoleUnderTest;
  let hubspot: FakeHubSpot;
  const shots = screenshotDir('console-oauth');

  beforeAll(async () => {
    hubspot = new FakeHubSpot();
    hubspot.seed('contacts', 120);
    hubspot.seed('companies', 5);
    hubspot.seed('deals', 3);
    hubspot.seed('tickets', 2);
    under = await startConsole({ env: hubspot.env() });
  });

  afterAll(async () => {
    await under?.stop();
    hubspot?.stop();
  });

  test('from the Connect HubSpot button to the synced tables; needs_reauth and re-authorize; a refused consent', async () => {
    const { watched, workspaceId, user } = await signedInPage(under, 'console-oauth');
    await useBusinessPlan(under.t, workspaceId);
    const { page } = watched;
    try {
      await page.getByRole('link', { name: 'Connections' }).click();
      await waitForRoom(page, 'Connections', shots);
      // Salesforce has no client configured here: said, with no button.
      await page.getByText('Salesforce is not set up on this service').waitFor();
      expect(await page.getByRole('button', { name: 'Connect Salesforce' }).count()).toBe(0);
      await page.getByLabel('HubSpot connection name').fill('hubspot_crm');
      await checkRoom(watched, shots, '01-connect-crm');
      const grantsBefore = hubspot.oauth.grants.authorization_code;
      await page.getByRole('button', { name: 'Connect HubSpot' }).click();

      // The provider consents at once and sends the browser back through the service to the connection.
      await waitForRoom(page, 'hubspot_crm', shots);
      expect(new URL(page.url()).pathname).toMatch(new RegExp(`^/workspaces/${workspaceId}/connections/[0-9a-f-]{36}$`));
      expect(hubspot.oauth.grants.authorization_code).toBe(grantsBefore + 1);
      await page.getByText('The provider authorized the connection').waitFor();
      const job = page.locator('.sync-job').first();
      await job.locator('.sync-job-header .badge-succeeded').waitFor({ timeout: 60_000 });
      expect(await job.locator('.sync-job-header').innerText()).toContain('oauth');
      expect(
        await job
          .getByRole('row', { name: /contacts/ })
          .getByRole('cell')
          .nth(4)
          .innerText(),
      ).toBe('120');
      await checkRoom(watched, shots, '02-hubspot-connected');

      // The grant is revoked at the provider (once the page has read the streams with it): the next sync fails and the connection asks to be authorized again.
      await page.getByRole('checkbox', { name: 'Sync contacts' }).waitFor();
      hubspot.oauth.revokeGrant(hubspot.oauth.lastRefreshToken);
      await page.getByRole('button', { name: 'Sync now' }).click();
      await page.locator('.sync-job').first().locator('.sync-job-header .badge-failed').waitFor({ timeout: 60_000 });
      await page
        .locator('.sync-job')
        .first()
        .getByText(/BAD_REFRESH_TOKEN/)
        .first()
        .waitFor();
      await page.getByText('The provider no longer accepts this connection’s authorization').waitFor();
      await page.locator('.details .badge-needs_reauth').waitFor();
      expect(await page.getByRole('button', { name: 'Sync now' }).isDisabled()).toBe(true);
      await checkRoom(watched, shots, '03-needs-reauth');
      await page.getByRole('button', { name: 'Re-authorize with HubSpot' }).click();
      await page.getByText('The provider authorized the connection').waitFor();
      await page.locator('.details .badge-active').waitFor();
      await page.locator('.sync-job').first().locator('.sync-job-header .badge-succeeded').waitFor({ timeout: 60_000 });
      expect(await page.locator('.sync-job').count()).toBe(3);

      // The tables are in the workspace's table browser and answer queries.
      await page.getByRole('link', { name: 'Tables', exact: true }).click();
      await waitForRoom(page, 'Tables', shots);
      await page.getByRole('link', { name: 'hubspot_crm.contacts' }).waitFor();
      const [contacts] = await queryRows(under.t, user, workspaceId, 'SELECT count(*) AS n FROM hubspot_crm.contacts');
      expect(contacts).toEqual({ n: 120 });

      // A consent the person refuses lands on the connections page with what happened.
      hubspot.oauth.denyConsent = true;
      await page.getByRole('link', { name: 'Connections', exact: true }).click();
      await waitForRoom(page, 'Connections', shots);
      await page.getByLabel('HubSpot connection name').fill('hubspot_denied');
      await page.getByRole('button', { name: 'Connect HubSpot' }).click();
      await page.getByText('The provider was not given access.').waitFor();
      expect(new URL(page.url()).searchParams.get('error')).toBe('access_denied');
      await checkRoom(watched, shots, '04-consent-refused');
      await page.getByRole('link', { name: /The connections of/ }).click();
      await waitForRoom(page, 'Connections', shots);
      expect(await page.getByRole('row', { name: /hubspot_denied/ }).count()).toBe(0);
    } catch (error) {
      await page.screenshot({ path: join(shots, 'failure.png'), fullPage: true }).catch(() => undefined);
      throw error;
    } finally {
      hubspot.oauth.denyConsent = false;
      await watched.context.close();
    }
  }, 110_000);
});
