import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type TestApp } from '../support/test-app';
import { createVerifiedUser, type TestUser } from '../support/accounts';
import { createWorkspace } from '../support/workspaces';
import { submitJobOk, waitForJob } from '../support/jobs';
import { eventually } from '../support/eventually';
import { pushOk } from '../support/lake';
import { createConnectionOk, createSourceDatabase, postgresSpec, syncOk, type SourceDatabase } from '../support/connections';
import { connectionSyncScheduleId } from '../../src/workflow-clients/connection-sync';
import { withWorkspace } from '../support/fixtures';

/**
 * An operator finds one tenant's durable work by search attribute, the way the Temporal UI's list
 * filter or `temporal workflow list --query` asks: exactly that workspace's workflows of a kind, none
 * of another workspace's. Visibility is eventually consistent, so each listing is read until it
 * settles.
 */
describe('durable work found by search attribute', () => {
  let t: TestApp;
  let owner: TestUser;
  let mine: string;
  let theirs: string;
  let source: SourceDatabase;

  beforeAll(async () => {
    ({ t, user: owner, workspaceId: mine } = await withWorkspace('local', { worker: true, label: 'operator-view' }));
    source = await createSourceDatabase();
    await source.sql`CREATE TABLE orders (id bigint PRIMARY KEY)`;
    await source.sql`INSERT INTO orders SELECT generate_series(1, 10)`;
    theirs = (await createWorkspace(t, owner, 'other')).id;
  });
  afterAll(async () => {
    await t.stop();
    await source.drop();
  });

  const workflowIds = async (query: string) => {
    const ids: string[] = [];
    for await (const execution of t.infra.temporal.client.workflow.list({ query })) ids.push(execution.workflowId);
    return ids.sort();
  };
  const scheduleIds = async (query: string) => {
    const ids: string[] = [];
    for await (const schedule of t.infra.temporal.client.schedule.list({ query })) ids.push(schedule.scheduleId);
    return ids.sort();
  };
  const settled = (read: () => Promise<string[]>, expected: string[]) => eventually(read, (ids) => ids.join() === [...expected].sort().join(), 10_000);

  test('query jobs of one workspace', async () => {
    const jobs = [];
    for (const workspaceId of [mine, mine, theirs]) jobs.push(await submitJobOk(t, owner, { sql: 'SELECT 1', workspace_id: workspaceId }));
    for (const jobId of jobs) expect((await waitForJob(t, owner, jobId)).status).toBe('succeeded');

    const query = `OxbowWorkspaceId = '${mine}' AND OxbowKind = 'query_job'`;
    expect(await settled(() => workflowIds(query), jobs.slice(0, 2))).toEqual([...jobs.slice(0, 2)].sort());
    const byObject = `OxbowObjectId = '${jobs[2]}' AND OxbowTrigger = 'manual'`;
    expect(await settled(() => workflowIds(byObject), [jobs[2]!])).toEqual([jobs[2]!]);
  }, 60_000);

  test('syncs of one workspace, and the sync schedule of one connection', async () => {
    const spec = postgresSpec(source);
    const mine1 = await createConnectionOk(t, owner, mine, { name: 'shop', connector_type: 'postgres', spec, sync_schedule: 'every 1h' });
    const other = await createConnectionOk(t, owner, theirs, { name: 'shop', connector_type: 'postgres', spec });
    const jobs = [(await syncOk(t, owner, mine, mine1.id)).id, (await syncOk(t, owner, mine, mine1.id)).id];
    await syncOk(t, owner, theirs, other.id);

    const query = `OxbowWorkspaceId = '${mine}' AND OxbowKind = 'sync'`;
    // Manual runs only: the hourly schedule may start a run of its own meanwhile (at the top of the hour).
    const manual = `${query} AND OxbowTrigger = 'manual'`;
    expect(await settled(() => workflowIds(manual), jobs)).toEqual([...jobs].sort());
    const failedOfConnection = `OxbowObjectId = '${mine1.id}' AND OxbowKind = 'sync' AND ExecutionStatus = 'Failed'`;
    expect(await workflowIds(failedOfConnection)).toEqual([]);
    expect(await settled(() => scheduleIds(query), [connectionSyncScheduleId(mine1.id)])).toEqual([connectionSyncScheduleId(mine1.id)]);
  }, 120_000);

  test('maintenance schedules of one workspace', async () => {
    await pushOk(t, mine, owner, { table: 'events.visible_rows', records: [{ id: 1 }] });
    const query = `OxbowWorkspaceId = '${mine}' AND OxbowKind = 'maintenance'`;
    expect(await settled(() => scheduleIds(query), [`workspace-maintenance-${mine}`])).toEqual([`workspace-maintenance-${mine}`]);
  }, 30_000);

  test('the purge of one workspace', async () => {
    const leaving = (await createWorkspace(t, owner, 'leaving')).id;
    expect((await t.request(`/api/v1/workspaces/${leaving}`, { method: 'DELETE', token: owner.accessToken })).status).toBe(204);
    const query = `OxbowWorkspaceId = '${leaving}' AND OxbowKind = 'purge'`;
    expect(await settled(() => workflowIds(query), [`workspace-purge-${leaving}`])).toEqual([`workspace-purge-${leaving}`]);
    expect(await workflowIds(`OxbowWorkspaceId = '${mine}' AND OxbowKind = 'purge'`)).toEqual([]);
  }, 30_000);

  test('the retention of one deleted account', async () => {
    const leaving = await createVerifiedUser(t, 'leaving-operator-view');
    const deleted = await t.request('/api/v1/auth/me/delete-account', { method: 'POST', json: { password: leaving.password }, token: leaving.accessToken });
    expect(deleted.status).toBe(204);
    const query = `OxbowObjectId = '${leaving.userId}' AND OxbowKind = 'retention'`;
    expect(await settled(() => workflowIds(query), [`account-retention-${leaving.userId}`])).toEqual([`account-retention-${leaving.userId}`]);
  }, 30_000);
});
