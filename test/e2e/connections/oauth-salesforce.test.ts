import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../../support/test-app';
import { addMember } from '../../support/workspaces';
import { createVerifiedUser, type TestUser } from '../../support/accounts';
import { bodyOf } from '../../support/http';
import { connectionsPath, queryRows, triggerSyncOk, waitForSync } from '../../support/connections';
import { authorize, authorizeOk, callback, connectedId, consent, storeContents } from '../../support/oauth';
import { FakeSalesforce } from '../../support/fake-crm/fake-salesforce';
import { FakeHubSpot } from '../../support/fake-crm/fake-hubspot';
import { withWorkspace } from '../../support/fixtures';

const frontend = 'https://crm.example.test';

describe('Salesforce connections over OAuth, and the state of a callback', () => {
  let t: TestApp;
  let salesforce: FakeSalesforce;
  let hubspot: FakeHubSpot;
  let user: TestUser;
  let workspace: { id: string; slug: string };

  const connectionNames = async () => (await bodyOf(await t.request(connectionsPath(workspace.id), { token: user.accessToken }))).map((item: any) => item.name);
  const expectRefused = (landing: URL, error: string) => {
    expect(`${landing.origin}${landing.pathname}`).toBe(`${frontend}/connections`);
    expect(landing.searchParams.get('error')).toBe(error);
  };

  beforeAll(async () => {
    salesforce = new FakeSalesforce();
    for (const object of ['Account', 'Contact', 'Opportunity', 'Lead']) salesforce.seed(object, object === 'Account' ? 12 : 2);
    hubspot = new FakeHubSpot();
    hubspot.seed('contacts', 1);
    ({ t, user, workspace } = await withWorkspace('postgres-s3', {
      worker: true,
      env: { ...salesforce.env(), ...hubspot.env(), FRONTEND_URL: frontend },
      label: 'salesforce',
      plan: 'business',
    }));
  });
  afterAll(async () => {
    await t.stop();
    salesforce.stop();
    hubspot.stop();
  });

  test('sObjects land at the instance_url of the token, through nextRecordsUrl pages, the session renewed when it ends mid-query; then incrementally by SystemModstamp, a 429 waited out', async () => {
    const { authorization_url } = await authorizeOk(t, user, 'salesforce', workspace.id, 'sfdc');
    expect(new URL(authorization_url).searchParams.get('response_type')).toBe('code');
    salesforce.expireTokenAfterFirstPageOf = 'Account';
    const unauthorized = salesforce.served.unauthorized;
    const id = connectedId(await callback(t, await consent(authorization_url)));
    const jobs = await bodyOf(await t.request(`${connectionsPath(workspace.id)}/${id}/sync-jobs`, { token: user.accessToken }));
    const first = await waitForSync(t, user, workspace.id, id, jobs[0].id);
    expect(first).toMatchObject({ status: 'succeeded', trigger: 'oauth' });
    expect(salesforce.expireTokenAfterFirstPageOf).toBeUndefined();
    // The streams run side by side: each request in flight when the session ended is refused once, then all go on with the renewed token.
    expect(salesforce.served.unauthorized).toBeGreaterThanOrEqual(unauthorized + 1);
    expect(salesforce.oauth.grants.refresh_token).toBeGreaterThanOrEqual(1);

    const [accounts] = await queryRows(
      t,
      user,
      workspace.id,
      'SELECT count(*) AS n, count(DISTINCT id) AS ids, sum(annualrevenue) AS revenue FROM sfdc.account',
    );
    expect(accounts).toEqual({ n: 12, ids: 12, revenue: Array.from({ length: 12 }, (_, i) => i * 1000.5).reduce((a, b) => a + b, 0) });
    const [row] = await queryRows(t, user, workspace.id, 'SELECT * FROM sfdc.account LIMIT 1');
    expect(Object.keys(row!).sort()).toEqual(['annualrevenue', 'id', 'isdeleted', 'name', 'systemmodstamp']);

    const incremental = { streams: ['account'] };
    const records = salesforce.objects.get('Account')!.records;
    Object.assign(records[3]!, { Name: 'Renamed', SystemModstamp: '2025-02-01T10:00:00.000+0000' });
    const queries = salesforce.served.queries.length;
    salesforce.rateLimitNext = 1;
    const job = await waitForSync(t, user, workspace.id, id, await triggerSyncOk(t, user, workspace.id, id, incremental));
    expect(job).toMatchObject({ status: 'succeeded', streams: [{ name: 'account', records_read: 1 }] });
    expect(salesforce.served.rateLimited).toBe(1);
    expect(salesforce.served.queries.slice(queries).some((soql) => soql.includes('WHERE SystemModstamp > 2024-01-01T00:11:00.000+0000'))).toBe(true);
    const renamed = await queryRows(
      t,
      user,
      workspace.id,
      "SELECT count(*) AS n, max(name) FILTER (WHERE id = '001000000000000003') AS name FROM sfdc.account",
    );
    expect(renamed).toEqual([{ n: 12, name: 'Renamed' }]);
  });

  test('a forged state, a state used twice, an expired one and another provider’s are refused and create nothing', async () => {
    const forged = await callback(t, `/api/v1/oauth/salesforce/callback?code=made-up&state=${'x'.repeat(43)}`);
    expectRefused(forged, 'invalid_state');

    const { authorization_url } = await authorizeOk(t, user, 'salesforce', workspace.id, 'sfdc_replayed');
    const back = await consent(authorization_url);
    connectedId(await callback(t, back));
    expectRefused(await callback(t, back), 'invalid_state');

    const expiring = await authorizeOk(t, user, 'salesforce', workspace.id, 'sfdc_expired');
    const late = await consent(expiring.authorization_url);
    t.clock.advance(11 * 60_000);
    expectRefused(await callback(t, late), 'invalid_state');

    const other = await authorizeOk(t, user, 'hubspot', workspace.id, 'sfdc_crossed');
    const crossed = new URL(await consent(other.authorization_url), 'http://localhost');
    expectRefused(await callback(t, `/api/v1/oauth/salesforce/callback${crossed.search}`), 'invalid_state');

    const names = await connectionNames();
    expect(names).toContain('sfdc_replayed');
    expect(names).not.toContain('sfdc_expired');
    expect(names).not.toContain('sfdc_crossed');
  });

  test('access denied at Salesforce', async () => {
    salesforce.oauth.denyConsent = true;
    try {
      const { authorization_url } = await authorizeOk(t, user, 'salesforce', workspace.id, 'sfdc_denied');
      expectRefused(await callback(t, await consent(authorization_url)), 'access_denied');
    } finally {
      salesforce.oauth.denyConsent = false;
    }
    expect(await connectionNames()).not.toContain('sfdc_denied');
  });

  test('authorize checks the caller: members only, a viewer may not, a name of another type is a conflict', async () => {
    const stranger = await createVerifiedUser(t, 'sf-stranger');
    expect((await authorize(t, stranger, 'salesforce', workspace.slug, 'sfdc_x')).status).toBe(403);
    const viewer = await createVerifiedUser(t, 'sf-viewer');
    await addMember(t, workspace.id, user, viewer, 'VIEWER');
    const refused = await authorize(t, viewer, 'salesforce', workspace.id, 'sfdc_x');
    expect(refused.status).toBe(403);
    expect((await bodyOf(refused)).detail.error.code).toBe('INSUFFICIENT_ROLE');
    const { authorization_url } = await authorizeOk(t, user, 'salesforce', workspace.id, 'crm_taken');
    connectedId(await callback(t, await consent(authorization_url)));
    const conflict = await authorize(t, user, 'hubspot', workspace.id, 'crm_taken');
    expect(conflict.status).toBe(409);
    const response = await t.request('/api/v1/oauth/salesforce/authorize?workspace_id=x', { token: user.accessToken });
    expect(response.status).toBe(422);
    expect((await t.request(`/api/v1/oauth/salesforce/authorize?workspace_id=${workspace.id}&connection_name=a`)).status).toBe(401);
  });

  test('no token, code or client secret in clear in the metadata database or the logs', async () => {
    salesforce.expireTokenAfterFirstPageOf = 'Account';
    const id = connectedId(await callback(t, await consent((await authorizeOk(t, user, 'salesforce', workspace.id, 'sfdc_secrets')).authorization_url)));
    const [job] = await bodyOf(await t.request(`${connectionsPath(workspace.id)}/${id}/sync-jobs`, { token: user.accessToken }));
    expect((await waitForSync(t, user, workspace.id, id, job.id)).status).toBe('succeeded');
    const secrets = [salesforce.oauth.client.secret, hubspot.oauth.client.secret, ...salesforce.oauth.issued, ...hubspot.oauth.issued];
    expect(secrets.length).toBeGreaterThan(4);
    const database = storeContents(t);
    const logs = t.logLines.join('\n');
    for (const secret of secrets) {
      expect({ secret, inDatabase: database.includes(secret), inLogs: logs.includes(secret) }).toEqual({ secret, inDatabase: false, inLogs: false });
    }
  });
});
