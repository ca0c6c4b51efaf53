import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import type { TestUser } from '../support/accounts';
import { createWorkspace, type TestPlan, addPlan, usePlan } from '../support/workspaces';
import { pushOk } from '../support/lake';
import {
  createConnection,
  createConnectionOk,
  createSourceDatabase,
  postgresSpec,
  triggerSyncOk,
  waitForSync,
  type SourceDatabase,
} from '../support/connections';
import { withUser } from '../support/fixtures';

// A plan of one connector and 20 kB of storage.
const tinyPlan: TestPlan = { id: 'tiny', name: 'Tiny', storage_limit_gb: 0.00002, connector_limit: 1 };

/** Connections are held to the same plan limits as everything else: their number, and the storage their syncs write. */
describe('plan limits on connections and syncs', () => {
  let t: TestApp, user: TestUser;
  let source: SourceDatabase;

  beforeAll(async () => {
    ({ t, user } = await withUser('local', { worker: true, label: 'plan-limits' }));
    await addPlan(t, tinyPlan);
    source = await createSourceDatabase();
    await source.sql`CREATE TABLE orders (id bigint PRIMARY KEY, note text)`;
    await source.sql`INSERT INTO orders SELECT i, repeat('x', 40) FROM generate_series(1, 500) i`;
  });
  afterAll(async () => {
    await t.stop();
    await source.drop();
  });

  const tinyWorkspace = async (label: string) => {
    const { id } = await createWorkspace(t, user, label);
    await usePlan(t, id, 'tiny');
    return id;
  };

  test('a second connection on a plan of one is 403 CONNECTOR_LIMIT_REACHED; the dashboard counts the first', async () => {
    const workspaceId = await tinyWorkspace('one-connector');
    await createConnectionOk(t, user, workspaceId, { name: 'shop', connector_type: 'postgres', spec: postgresSpec(source) });
    const refused = await createConnection(t, user, workspaceId, { name: 'shop_two', connector_type: 'postgres', spec: postgresSpec(source) });
    expect(refused.status).toBe(403);
    expect((await bodyOf(refused)).detail.error).toMatchObject({ code: 'CONNECTOR_LIMIT_REACHED', message: expect.stringContaining('Tiny plan') });
    const dashboard = await bodyOf(await t.request(`/api/v1/workspaces/${workspaceId}/usage/dashboard`, { token: user.accessToken }));
    expect(dashboard).toMatchObject({ connectors_used: 1, connectors_limit: 1 });
  });

  test('a sync into a workspace at its storage limit fails with STORAGE_LIMIT_REACHED and writes nothing', async () => {
    const workspaceId = await tinyWorkspace('full-storage');
    // Random text: it does not compress, so 400 records pass the limit.
    const records = Array.from({ length: 400 }, (_, id) => ({ id, note: `${crypto.randomUUID()} ${crypto.randomUUID()}` }));
    await pushOk(t, workspaceId, user, { table: 'raw.filler', records });
    expect((await t.services.usage.storage.use(workspaceId)).usedBytes).toBeGreaterThanOrEqual(20_000);

    const connection = await createConnectionOk(t, user, workspaceId, { name: 'shop', connector_type: 'postgres', spec: postgresSpec(source) });
    const jobId = await triggerSyncOk(t, user, workspaceId, connection.id);
    const job = await waitForSync(t, user, workspaceId, connection.id, jobId);
    expect(job.status).toBe('failed');
    expect(job.streams).toEqual([
      expect.objectContaining({ name: 'orders', status: 'failed', records_written: 0, error: expect.stringContaining("the Tiny plan's limit") }),
    ]);
    const tables = (await bodyOf(await t.request(`/api/v1/workspaces/${workspaceId}/query/tables`, { token: user.accessToken }))).tables;
    expect(tables.map((table: { name: string }) => table.name)).toEqual(['filler']);
  }, 120_000);
});
