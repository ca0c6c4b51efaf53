import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import { bodyOf } from '../../support/http';
import { connectionsPath, queryRows, triggerSync, triggerSyncOk, waitForSync } from '../../support/connections';
import { authorize, authorizeOk, callback, connectedId, connectThroughProvider, consent, storeContents } from '../../support/oauth';
import { FakeHubSpot } from '../../support/fake-crm/fake-hubspot';
import { withWorkspace } from '../../support/fixtures';

const frontend = 'https://app.example.test';

describe('HubSpot connections over OAuth', () => {
  let t: TestApp;
  let hubspot: FakeHubSpot;
  let user: TestUser;
  let workspace: { id: string; slug: string };
  const responses: string[] = [];

  /** Every answer the test reads is kept, to look for secrets in them at the end. */
  const read = async (response: Response): Promise<any> => {
    const text = await response.clone().text();
    responses.push(text);
    return bodyOf(response);
  };
  const connection = async (id: string) => read(await t.request(`${connectionsPath(workspace.id)}/${id}`, { token: user.accessToken }));
  const jobsOf = async (id: string) => read(await t.request(`${connectionsPath(workspace.id)}/${id}/sync-jobs`, { token: user.accessToken }));
  const firstSync = async (id: string) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const [job] = await jobsOf(id);
      if (job) return waitForSync(t, user, workspace.id, id, job.id);
      if (Date.now() > deadline) throw new Error('no first sync was recorded');
      await Bun.sleep(200);
    }
  };

  beforeAll(async () => {
    hubspot = new FakeHubSpot();
    hubspot.seed('contacts', 250);
    hubspot.seed('companies', 7);
    hubspot.seed('deals', 3);
    hubspot.seed('tickets', 2);
    // Streams side by side (the default), on the embedded catalog; the Salesforce suite runs on Postgres.
    ({ t, user, workspace } = await withWorkspace('local', {
      worker: true,
      env: { ...hubspot.env(), FRONTEND_URL: frontend },
      label: 'hubspot',
      plan: 'business',
    }));
  });
  afterAll(async () => {
    await t.stop();
    hubspot.stop();
  });

  test('HubSpot is configured, Salesforce is not: authorize answers 503 PROVIDER_NOT_CONFIGURED', async () => {
    const types = await read(await t.request('/api/v1/connections/available-types', { token: user.accessToken }));
    expect(types.find((type: any) => type.type === 'hubspot')).toMatchObject({ auth: 'oauth', configured: true });
    expect(types.find((type: any) => type.type === 'salesforce')).toMatchObject({ auth: 'oauth', configured: false });
    const response = await authorize(t, user, 'salesforce', workspace.id, 'crm');
    expect(response.status).toBe(503);
    expect((await bodyOf(response)).detail.error.code).toBe('PROVIDER_NOT_CONFIGURED');
    expect((await authorize(t, user, 'pipedrive', workspace.id, 'crm')).status).toBe(404);
    expect((await authorize(t, user, 'hubspot', workspace.id, 'Not A Name')).status).toBe(422);
  });

  test('authorize, consent, callback: the connection is created, tested and synced, its token refreshed mid-sync, its tables queryable', async () => {
    const answer = await authorizeOk(t, user, 'hubspot', workspace.slug, 'hubspot_crm');
    const consentUrl = new URL(answer.authorization_url);
    expect(`${consentUrl.origin}${consentUrl.pathname}`).toBe(`${hubspot.origin}/oauth/authorize`);
    expect(consentUrl.searchParams.get('client_id')).toBe(hubspot.oauth.client.id);
    expect(consentUrl.searchParams.get('redirect_uri')).toBe(`${t.backend.config.http.publicBaseUrl}/api/v1/oauth/hubspot/callback`);
    expect(consentUrl.searchParams.get('scope')).toContain('crm.objects.contacts.read');
    expect(consentUrl.searchParams.get('state')).toBe(answer.state);
    expect(consentUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(consentUrl.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The token stops working after the first page of contacts: the sync refreshes it and goes on.
    hubspot.expireTokenAfterFirstPageOf = 'contacts';
    const unauthorizedBefore = hubspot.served.unauthorized;
    const refreshesBefore = hubspot.oauth.grants.refresh_token;
    const landing = await callback(t, await consent(answer.authorization_url));
    expect(landing.origin).toBe(frontend);
    const id = connectedId(landing);

    expect(await connection(id)).toMatchObject({
      name: 'hubspot_crm',
      connector_type: 'hubspot',
      status: 'active',
      spec: { objects: ['contacts', 'companies', 'deals', 'tickets'] },
    });
    const job = await firstSync(id);
    expect(job).toMatchObject({ status: 'succeeded', trigger: 'oauth' });
    expect(hubspot.expireTokenAfterFirstPageOf).toBeUndefined();
    // Streams running side by side may each meet the dead token once; one refresh serves them all.
    expect(hubspot.served.unauthorized).toBeGreaterThanOrEqual(unauthorizedBefore + 1);
    expect(hubspot.oauth.grants.refresh_token).toBe(refreshesBefore + 1);

    const [contacts] = await queryRows(
      t,
      user,
      workspace.id,
      'SELECT count(*) AS n, count(DISTINCT id) AS ids, sum(amount) AS amount, count(*) FILTER (WHERE is_vip) AS vips FROM hubspot_crm.contacts',
    );
    expect(contacts).toEqual({ n: 250, ids: 250, amount: Array.from({ length: 250 }, (_, i) => i * 10.5).reduce((a, b) => a + b, 0), vips: 84 });
    const [companies] = await queryRows(t, user, workspace.id, 'SELECT count(*) AS n, max(updated_at) AS latest FROM hubspot_crm.companies');
    expect(companies!.n).toBe(7);
    const streams = await read(await t.request(`${connectionsPath(workspace.id)}/${id}/streams`, { token: user.accessToken }));
    expect(streams.find((stream: any) => stream.name === 'contacts')).toMatchObject({
      primary_key: ['id'],
      cursor_candidates: ['lastmodifieddate'],
      source_defined_cursor: true,
      status: 'available',
    });
  });

  test('the OAuth workflow and its sync are visible in Temporal by their search attributes, the sync a child of the other', async () => {
    const id = connectedId(await connectThroughProvider(t, user, 'hubspot', workspace.id, 'hubspot_visible'));
    await firstSync(id);
    const client = t.infra.temporal.client;
    const list = async (query: string) => {
      const executions = [];
      for await (const execution of client.workflow.list({ query })) executions.push(execution);
      return executions;
    };
    // Visibility is eventually consistent: the lists catch up within moments.
    const deadline = Date.now() + 20_000;
    let oauth = await list(`OxbowKind = 'oauth' AND OxbowWorkspaceId = '${workspace.id}'`);
    let syncs = await list(`OxbowKind = 'sync' AND OxbowObjectId = '${id}' AND OxbowTrigger = 'oauth'`);
    while ((oauth.length === 0 || syncs.length === 0) && Date.now() < deadline) {
      await Bun.sleep(500);
      oauth = await list(`OxbowKind = 'oauth' AND OxbowWorkspaceId = '${workspace.id}'`);
      syncs = await list(`OxbowKind = 'sync' AND OxbowObjectId = '${id}' AND OxbowTrigger = 'oauth'`);
    }
    expect(syncs).toHaveLength(1);
    expect(syncs[0]!.type).toBe('connectionSyncWorkflow');
    const parent = (await client.workflow.getHandle(syncs[0]!.workflowId).describe()).parentExecution?.workflowId;
    const owner = oauth.find((execution) => execution.workflowId === parent);
    expect(owner?.type).toBe('oauthConnectionWorkflow');
    expect(owner?.status.name).toBe('COMPLETED');
    expect(await client.workflow.getHandle(parent!).result()).toMatchObject({ connectionId: id });
  });

  test('an incremental sync searches for what changed since the last one and deduplicates on the id; 429 answers are waited out', async () => {
    const landing = await connectThroughProvider(t, user, 'hubspot', workspace.id, 'hubspot_incremental');
    const id = connectedId(landing);
    // The first sync reads everything (incrementally, deduplicated: the default of a CRM connection) and keeps the latest modification time.
    expect(await firstSync(id)).toMatchObject({
      status: 'succeeded',
      streams: expect.arrayContaining([expect.objectContaining({ name: 'contacts', sync_mode: 'incremental_append_deduped', records_read: 250 })]),
    });
    const contacts = hubspot.objects.get('contacts')!;
    const later = new Date(Date.UTC(2025, 0, 1)).toISOString();
    Object.assign(contacts[5]!, { updatedAt: later, properties: { ...contacts[5]!.properties, firstname: 'Changed', lastmodifieddate: later } });
    contacts.push({
      ...contacts[0]!,
      id: '9999',
      updatedAt: later,
      createdAt: later,
      properties: { ...contacts[0]!.properties, firstname: 'New', lastmodifieddate: later },
    });
    const searches = hubspot.served.searches;
    hubspot.rateLimitNext = 2;
    const jobId = await triggerSyncOk(t, user, workspace.id, id, { streams: ['contacts'] });
    const job = await waitForSync(t, user, workspace.id, id, jobId);
    expect(job.status).toBe('succeeded');
    expect(hubspot.served.rateLimited).toBe(2);
    expect(hubspot.served.searches).toBeGreaterThan(searches);
    // Only the two records modified since the first sync were read.
    expect(job.streams[0]).toMatchObject({ name: 'contacts', records_read: 2 });
    const rows = await queryRows(t, user, workspace.id, "SELECT id, firstname FROM hubspot_incremental.contacts WHERE id IN ('1005', '9999') ORDER BY id");
    expect(rows).toEqual([
      { id: '1005', firstname: 'Changed' },
      { id: '9999', firstname: 'New' },
    ]);
    const [count] = await queryRows(t, user, workspace.id, 'SELECT count(*) AS n FROM hubspot_incremental.contacts');
    expect(count!.n).toBe(251);
    contacts.splice(250, 1);
  });

  test('a refresh refused with invalid_grant marks the connection needs_reauth and fails the sync; authorizing the name again binds it', async () => {
    const id = connectedId(await connectThroughProvider(t, user, 'hubspot', workspace.id, 'hubspot_revoked'));
    await firstSync(id);
    hubspot.oauth.revokeGrant(hubspot.oauth.lastRefreshToken);
    const jobId = await triggerSyncOk(t, user, workspace.id, id, { streams: ['companies'] });
    const job = await waitForSync(t, user, workspace.id, id, jobId);
    expect(job.status).toBe('failed');
    expect(job.error.message).toContain('authorize it again');
    expect((await connection(id)).status).toBe('needs_reauth');
    expect((await triggerSync(t, user, workspace.id, id)).status).toBe(409);
    const test = await read(await t.request(`${connectionsPath(workspace.id)}/${id}/test`, { method: 'POST', token: user.accessToken }));
    expect(test.success).toBe(false);

    const again = await connectThroughProvider(t, user, 'hubspot', workspace.id, 'hubspot_revoked');
    expect(connectedId(again)).toBe(id);
    expect((await connection(id)).status).toBe('active');
    const jobs = await jobsOf(id);
    const rebound = await waitForSync(t, user, workspace.id, id, jobs[0].id);
    expect(rebound).toMatchObject({ status: 'succeeded', trigger: 'oauth' });
  });

  test('a token nearing its expiry is refreshed before the provider would refuse it', async () => {
    // Tokens of this test live 6 s: their refresh is due at half that, while the provider still takes them.
    hubspot.oauth.tokenLifetimeSeconds = 6;
    try {
      const unauthorized = hubspot.served.unauthorized;
      const id = connectedId(await connectThroughProvider(t, user, 'hubspot', workspace.id, 'hubspot_ahead'));
      await firstSync(id);
      const refreshes = hubspot.oauth.grants.refresh_token;
      await Bun.sleep(3_500);
      const job = await waitForSync(t, user, workspace.id, id, await triggerSyncOk(t, user, workspace.id, id, { streams: ['deals'] }));
      expect(job.status).toBe('succeeded');
      expect(hubspot.oauth.grants.refresh_token).toBeGreaterThan(refreshes);
      expect(hubspot.served.unauthorized).toBe(unauthorized);
    } finally {
      hubspot.oauth.tokenLifetimeSeconds = 1800;
    }
  });

  test('the user denying access at the provider lands on the connections page with access_denied and creates nothing', async () => {
    hubspot.oauth.denyConsent = true;
    try {
      const landing = await connectThroughProvider(t, user, 'hubspot', workspace.id, 'hubspot_denied');
      expect(`${landing.origin}${landing.pathname}`).toBe(`${frontend}/connections`);
      expect(landing.searchParams.get('error')).toBe('access_denied');
    } finally {
      hubspot.oauth.denyConsent = false;
    }
    const list = await read(await t.request(connectionsPath(workspace.id), { token: user.accessToken }));
    expect(list.map((item: any) => item.name)).not.toContain('hubspot_denied');
  });

  test('tokens and the client secret appear in no answer, log line or row of the metadata database', async () => {
    // A token refreshed mid-sync is sealed like the first one.
    hubspot.expireTokenAfterFirstPageOf = 'contacts';
    const id = connectedId(await connectThroughProvider(t, user, 'hubspot', workspace.id, 'hubspot_secrets'));
    await firstSync(id);
    await connection(id);
    await read(await t.request(connectionsPath(workspace.id), { token: user.accessToken }));
    const secrets = [hubspot.oauth.client.secret, ...hubspot.oauth.issued];
    expect(secrets.filter((secret) => secret.startsWith('access-')).length).toBeGreaterThanOrEqual(2);
    const database = storeContents(t);
    const logs = t.logLines.join('\n');
    const answers = responses.join('\n');
    expect(database).toContain('hubspot_secrets');
    for (const secret of secrets) {
      expect({ secret, inDatabase: database.includes(secret), inLogs: logs.includes(secret), inAnswers: answers.includes(secret) }).toEqual({
        secret,
        inDatabase: false,
        inLogs: false,
        inAnswers: false,
      });
    }
  });
});
