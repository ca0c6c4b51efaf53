import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import { useBusinessPlan } from '../../support/workspaces';
import { bodyOf } from '../../support/http';
import { connectionsPath, queryRows, syncOk, waitForSync } from '../../support/connections';
import { connectedId, connectThroughProvider } from '../../support/oauth';
import { FakeHubSpot } from '../../support/fake-crm/fake-hubspot';
import { FakeSalesforce } from '../../support/fake-crm/fake-salesforce';
import { withWorkspace } from '../../support/fixtures';

/**
 * Streams the credentials cannot read are skipped while the others sync, and records deleted in the
 * CRM (HubSpot's archived ones, Salesforce's recycle bin) leave the lake, or stay marked, at the next
 * sync: against local servers speaking HubSpot's and Salesforce's APIs.
 */
describe('CRM syncs: per-stream outcomes and deletions', () => {
  let t: TestApp;
  let hubspot: FakeHubSpot;
  let salesforce: FakeSalesforce;
  let user: TestUser;
  let workspace: { id: string; slug: string };

  const get = async (path: string) => bodyOf(await t.request(`${connectionsPath(workspace.id)}${path}`, { token: user.accessToken }));
  const firstSync = async (id: string) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const [job] = await get(`/${id}/sync-jobs`);
      if (job) return waitForSync(t, user, workspace.id, id, job.id);
      if (Date.now() > deadline) throw new Error('no first sync was recorded');
      await Bun.sleep(200);
    }
  };
  const patch = async (id: string, body: Record<string, unknown>) => {
    const response = await t.request(`${connectionsPath(workspace.id)}/${id}`, { method: 'PATCH', json: body, token: user.accessToken });
    expect(response.status).toBe(200);
    return bodyOf(response);
  };

  beforeAll(async () => {
    hubspot = new FakeHubSpot();
    for (const [object, count] of [
      ['contacts', 30],
      ['companies', 4],
      ['deals', 3],
      ['tickets', 5],
    ] as const)
      hubspot.seed(object, count);
    salesforce = new FakeSalesforce();
    for (const object of ['Account', 'Contact', 'Opportunity', 'Lead']) salesforce.seed(object, 8);
    ({ t, user, workspace } = await withWorkspace('local', { worker: true, env: { ...hubspot.env(), ...salesforce.env() }, label: 'crm-outcomes' }));
    await useBusinessPlan(t, workspace.id);
  });
  afterAll(async () => {
    await t.stop();
    hubspot.stop();
    salesforce.stop();
  });

  test('HubSpot without the tickets scope: tickets is offered as unavailable and skipped with its reason, the other objects sync, the job succeeds', async () => {
    hubspot.missingScopes.add('tickets');
    try {
      const id = connectedId(await connectThroughProvider(t, user, 'hubspot', workspace.id, 'hs_scopes'));
      const job = await firstSync(id);
      expect(job.status).toBe('succeeded');
      expect(job.error).toBeNull();
      const byName = Object.fromEntries(job.streams.map((stream: any) => [stream.name, stream]));
      expect(byName.tickets).toMatchObject({ status: 'skipped', records_written: 0 });
      expect(byName.tickets.reason).toContain('MISSING_SCOPES');
      for (const name of ['contacts', 'companies', 'deals']) expect(byName[name].status).toBe('succeeded');
      expect(
        await queryRows(
          t,
          user,
          workspace.id,
          'SELECT (SELECT count(*) FROM hs_scopes.contacts) AS contacts, (SELECT count(*) FROM hs_scopes.companies) AS companies, (SELECT count(*) FROM hs_scopes.deals) AS deals',
        ),
      ).toEqual([{ contacts: 30, companies: 4, deals: 3 }]);
      const missing = await t.request(`/api/v1/workspaces/${workspace.id}/query`, {
        method: 'POST',
        json: { sql: 'SELECT * FROM hs_scopes.tickets' },
        token: user.accessToken,
      });
      expect((await bodyOf(missing)).detail.error.code).toBe('UNDEFINED_TABLE');

      const streams = await get(`/${id}/streams`);
      expect(streams.find((stream: any) => stream.name === 'tickets')).toMatchObject({ status: 'unavailable' });
      expect(streams.find((stream: any) => stream.name === 'tickets').reason).toContain('tickets');
      expect(
        streams
          .filter((stream: any) => stream.status === 'available')
          .map((stream: any) => stream.name)
          .sort(),
      ).toEqual(['companies', 'contacts', 'deals']);
      const states = await get(`/${id}/sync-status`);
      expect(states.find((state: any) => state.stream === 'tickets')).toMatchObject({ status: 'skipped' });
      expect(states.find((state: any) => state.stream === 'contacts')).toMatchObject({ status: 'succeeded', cursor_field: 'lastmodifieddate' });

      // Only unreadable streams asked for: nothing could be read, and the job says so.
      const onlyTickets = await t.request(`${connectionsPath(workspace.id)}/${id}/sync`, {
        method: 'POST',
        json: { streams: ['tickets'] },
        token: user.accessToken,
      });
      const failed = await waitForSync(t, user, workspace.id, id, (await bodyOf(onlyTickets)).job_id);
      expect(failed.status).toBe('failed');
      expect(failed.error.message).toContain('no stream could be read');
    } finally {
      hubspot.missingScopes.clear();
    }
  });

  for (const mode of ['delete', 'mark'] as const) {
    test(`HubSpot records archived since the last sync leave the lake (deletion_mode ${mode})`, async () => {
      const name = `hs_archive_${mode}`;
      const id = connectedId(await connectThroughProvider(t, user, 'hubspot', workspace.id, name));
      await firstSync(id);
      await patch(id, { deletion_mode: mode, streams: [{ name: 'deals', sync_mode: 'incremental_append_deduped' }] });
      const deals = hubspot.objects.get('deals')!;
      const [gone, edited] = [deals[0]!.id, deals[1]!.id];
      hubspot.archive('deals', gone);
      hubspot.update('deals', edited, { dealstage: 'closedwon' });
      const job = await syncOk(t, user, workspace.id, id);
      expect(job.streams[0]).toMatchObject({ name: 'deals', records_deleted: 1 });
      const rows = await queryRows(t, user, workspace.id, `SELECT * FROM ${name}.deals ORDER BY id`);
      if (mode === 'delete') expect(rows.map((row) => row.id)).toEqual(deals.slice(1).map((deal) => deal.id));
      else {
        expect(rows.map((row) => [row.id, row._deleted_at !== null])).toEqual(deals.map((deal) => [deal.id, deal.id === gone]));
      }
      expect(rows.find((row) => row.id === edited)!.dealstage).toBe('closedwon');
      // Archiving again changes nothing: the row stays deleted (or keeps its first mark).
      const again = await syncOk(t, user, workspace.id, id);
      expect(again.streams[0].records_deleted).toBe(0);
      hubspot.objects.get('deals')!.find((deal) => deal.id === gone)!.archived = false;
    });
  }

  test('Salesforce: an sObject missing from the global describe is skipped; records deleted to the recycle bin leave the lake through queryAll', async () => {
    salesforce.hidden.add('Lead');
    try {
      const id = connectedId(await connectThroughProvider(t, user, 'salesforce', workspace.id, 'sfdc_outcomes'));
      const first = await firstSync(id);
      expect(first.status).toBe('succeeded');
      const lead = first.streams.find((stream: any) => stream.name === 'lead');
      expect(lead).toMatchObject({ status: 'skipped' });
      expect(lead.reason).toContain('global describe');
      expect(
        first.streams
          .filter((stream: any) => stream.status === 'succeeded')
          .map((stream: any) => stream.name)
          .sort(),
      ).toEqual(['account', 'contact', 'opportunity']);
      expect((await get(`/${id}/streams`)).find((stream: any) => stream.name === 'lead')).toMatchObject({ status: 'unavailable' });

      const accounts = salesforce.objects.get('Account')!.records;
      salesforce.delete('Account', String(accounts[2]!.Id));
      salesforce.delete('Account', String(accounts[5]!.Id));
      salesforce.update('Account', String(accounts[3]!.Id), { Name: 'Renamed' });
      const queries = salesforce.served.queries.length;
      const second = await syncOk(t, user, workspace.id, id, { streams: ['account'] });
      expect(second.streams[0]).toMatchObject({ name: 'account', records_deleted: 2 });
      expect(salesforce.served.queries.slice(queries).some((soql) => soql.includes('WHERE SystemModstamp >'))).toBe(true);
      const rows = await queryRows(t, user, workspace.id, 'SELECT id, name FROM sfdc_outcomes.account ORDER BY id');
      expect(rows.map((row) => row.id)).toEqual(accounts.filter((_, index) => index !== 2 && index !== 5).map((account) => account.Id));
      expect(rows.find((row) => row.id === accounts[3]!.Id)!.name).toBe('Renamed');
    } finally {
      salesforce.hidden.clear();
    }
  });
});
