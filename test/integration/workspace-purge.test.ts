import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import postgres from 'postgres';
import { backends } from '../support/backends';
import { startTestApp, type TestApp } from '../support/test-app';
import { createVerifiedUser } from '../support/accounts';
import { addMember, createWorkspace } from '../support/workspaces';
import { createDuckDBInstance } from '../../src/engine/duckdb/create-instance';
import { attachCatalog } from '../../src/engine/attach-catalog';
import { catalogSchemaName, catalogStoreFor, sqliteCatalogFile, workspaceDataPrefix } from '../../src/engine/catalog-attachment';
import { workspacePurgeClient, workspacePurgeWorkflowId } from '../../src/workflow-clients/workspace-purge';
import { WorkspacesService } from '../../src/workspaces/workspaces-service';
import { workspacePurgeStatusQuery } from '../../src/workflows/workspace-purge';
import { namedQuery } from '../../src/store/named-query';
import { EngineConnection } from '../../src/engine/duckdb/engine-connection';
import { maintenanceScheduleId } from '../../src/workflow-clients/workspace-maintenance';
import { ScheduleNotFoundError } from '@temporalio/client';
import { submitJobOk, waitForJob } from '../support/jobs';
import { eventually } from '../support/eventually';

async function workflowIdsOf(t: TestApp, query: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const execution of t.infra.temporal.client.workflow.list({ query })) ids.push(execution.workflowId);
  return ids;
}
import { openBilling } from '../../src/billing/billing-queries';
import { withWorkspace } from '../support/fixtures';

const rowsOf = namedQuery<{ id: string }, { workspaces: number; members: number }>(
  'test.workspace_rows',
  `SELECT (SELECT count(*) FROM workspaces WHERE id = :id) AS workspaces,
          (SELECT count(*) FROM workspace_members WHERE workspace_id = :id) AS members`,
);
const usageRowsOf = namedQuery<{ id: string }, { usage: number; daily: number; billing: number; history: number }>(
  'test.workspace_usage_rows',
  `SELECT (SELECT count(*) FROM query_usage WHERE workspace_id = :id) AS usage,
          (SELECT count(*) FROM usage_daily WHERE workspace_id = :id) AS daily,
          (SELECT count(*) FROM workspace_billing WHERE workspace_id = :id) AS billing,
          (SELECT count(*) FROM query_history WHERE workspace_id = :id) AS history`,
);

async function catalogExists(t: TestApp, workspaceId: string): Promise<boolean> {
  const catalog = catalogStoreFor(t.backend.config.metadata, t.backend.config.dataDir);
  if (catalog.kind === 'sqlite') return existsSync(sqliteCatalogFile(catalog.dir, workspaceId));
  const sql = postgres(catalog.url, { max: 1, onnotice: () => {} });
  const rows = await sql`SELECT 1 FROM information_schema.schemata WHERE schema_name = ${catalogSchemaName(workspaceId)}`;
  await sql.end();
  return rows.length > 0;
}

/** Writes a table through the workspace's real DuckLake catalog, so there are files and a catalog to purge. */
async function writeTable(t: TestApp, workspaceId: string): Promise<void> {
  const instance = await createDuckDBInstance({ extensionDir: t.backend.config.duckdb.extensionDir });
  const connection = new EngineConnection(await instance.connect());
  const catalog = catalogStoreFor(t.backend.config.metadata, t.backend.config.dataDir);
  await attachCatalog(connection, { workspaceId, catalog, lake: t.backend.config.lake }, 'lake');
  await connection.run('CREATE TABLE lake.main.facts AS SELECT range AS id FROM range(5000)');
  connection.closeSync();
  instance.closeSync();
}

for (const backend of backends) {
  describe(`workspace purge on ${backend}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(backend, { worker: true });
    });
    afterAll(() => t.stop());

    test('deleting a workspace leaves no row, no catalog and no file of it behind', async () => {
      const { user: owner, workspace } = await withWorkspace(t, { label: 'purger' });
      const member = await createVerifiedUser(t, 'purged-member');
      await addMember(t, workspace.id, owner, member, 'MEMBER');
      await writeTable(t, workspace.id);
      expect((await t.infra.lake.list(workspaceDataPrefix(workspace.id))).length).toBeGreaterThan(0);
      expect(await catalogExists(t, workspace.id)).toBe(true);
      expect(
        (await t.request(`/api/v1/workspaces/${workspace.id}/query`, { method: 'POST', json: { sql: 'SELECT 1' }, token: owner.accessToken })).status,
      ).toBe(200);
      await t.infra.store.run(openBilling, { workspace_id: workspace.id, provider: 'stripe', now: new Date().toISOString() });
      await t.services.usageRecorded();
      expect(await t.infra.store.first(usageRowsOf, { id: workspace.id })).toEqual({ usage: 1, daily: 1, billing: 1, history: 1 });

      expect((await t.request(`/api/v1/workspaces/${workspace.id}`, { method: 'DELETE', token: owner.accessToken })).status).toBe(204);
      const purge = t.infra.temporal.client.workflow.getHandle(workspacePurgeWorkflowId(workspace.id));
      expect(await purge.result()).toBe('done');
      expect(await purge.query(workspacePurgeStatusQuery)).toMatchObject({ step: 'done', filesDeleted: expect.any(Number) });

      expect(await t.infra.store.first(rowsOf, { id: workspace.id })).toEqual({ workspaces: 0, members: 0 });
      expect(await t.infra.store.first(usageRowsOf, { id: workspace.id })).toEqual({ usage: 0, daily: 0, billing: 0, history: 0 });
      expect(await t.infra.lake.list(workspaceDataPrefix(workspace.id))).toEqual([]);
      expect(await catalogExists(t, workspace.id)).toBe(false);
    }, 60_000);

    test('a purge stops the workspace’s running jobs and its schedules, found by search attribute', async () => {
      const { user: owner, workspace } = await withWorkspace(t, { label: 'purge-running' });
      const jobId = await submitJobOk(t, owner, { sql: 'SELECT count(*) FROM range(1000000000000)', workspace_id: workspace.id });
      await waitForJob(t, owner, jobId, ['running']);
      // Visibility is eventually consistent: the purge finds what the listing shows.
      await eventually(
        () => workflowIdsOf(t, `OxbowWorkspaceId = '${workspace.id}' AND ExecutionStatus = 'Running'`),
        (ids) => ids.includes(jobId),
        10_000,
      );

      expect((await t.request(`/api/v1/workspaces/${workspace.id}`, { method: 'DELETE', token: owner.accessToken })).status).toBe(204);
      expect(await t.infra.temporal.client.workflow.getHandle(workspacePurgeWorkflowId(workspace.id)).result()).toBe('done');
      // The job's workflow takes the cancellation as one of its own endings, and closes cancelled.
      await eventually(
        () => t.infra.temporal.client.workflow.getHandle(jobId).describe(),
        (description) => description.status.name === 'CANCELLED',
        10_000,
      );
      expect((await t.infra.temporal.client.workflow.getHandle(jobId).describe()).status.name).toBe('CANCELLED');
      const schedule = await t.infra.temporal.client.schedule
        .getHandle(maintenanceScheduleId(workspace.id))
        .describe()
        .then(
          () => 'still there',
          (error: unknown) => error,
        );
      expect(schedule).toBeInstanceOf(ScheduleNotFoundError);
    }, 90_000);

    test('a purge that starts while its deletion is still committing reads the deletion, not the row before it', async () => {
      const { user: owner, workspace } = await withWorkspace(t, { label: 'purge-committing' });
      const membership = await t.services.workspaces.access.authorize(owner.userId, workspace.id, 'workspace:delete');
      // The deletion's transaction stays open a while after the purge has started: its worker is idle and takes it at once.
      const purges = workspacePurgeClient(t.infra.temporal);
      const slowToCommit = new WorkspacesService(
        t.infra.store,
        t.clock,
        {
          schedulePurge: async (workspaceId, purgeAfter) => {
            await purges.schedulePurge(workspaceId, purgeAfter);
            await Bun.sleep(1_500);
          },
        },
        () => Promise.resolve(),
      );
      await slowToCommit.delete(membership, t.clock.now().toISOString());
      expect(await t.infra.temporal.client.workflow.getHandle(workspacePurgeWorkflowId(workspace.id)).result()).toBe('done');
      expect(await t.infra.store.first(rowsOf, { id: workspace.id })).toEqual({ workspaces: 0, members: 0 });
    }, 60_000);

    test("another workspace's data is untouched by a purge", async () => {
      const { user: owner, workspace: kept } = await withWorkspace(t, { label: 'neighbour' });
      const gone = await createWorkspace(t, owner, 'gone');
      await writeTable(t, kept.id);
      await writeTable(t, gone.id);
      await t.request(`/api/v1/workspaces/${gone.id}`, { method: 'DELETE', token: owner.accessToken });
      await t.infra.temporal.client.workflow.getHandle(workspacePurgeWorkflowId(gone.id)).result();
      expect((await t.infra.lake.list(workspaceDataPrefix(kept.id))).length).toBeGreaterThan(0);
      expect(await catalogExists(t, kept.id)).toBe(true);
      expect(await t.infra.store.first(rowsOf, { id: kept.id })).toEqual({ workspaces: 1, members: 1 });
    }, 60_000);
  });
}
