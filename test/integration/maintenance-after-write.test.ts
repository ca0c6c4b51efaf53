import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { TestApp } from '../support/test-app';
import type { TestUser } from '../support/accounts';
import { createWorkspace } from '../support/workspaces';
import { pushOk, query } from '../support/lake';
import { eventually } from '../support/eventually';
import { createConnectionOk, createSourceDatabase, postgresSpec, syncOk, type SourceDatabase } from '../support/connections';
import { createTransformOk, runsOf, transformsPath } from '../support/transforms';
import { maintenanceAfterWriteId } from '../../src/workflow-clients/workspace-maintenance';
import type { MaintenanceReport } from '../../src/engine/maintenance/run-maintenance';
import { withUser } from '../support/fixtures';

/**
 * Writes that leave a table with many small files or delete files start the workspace's maintenance
 * at once (thresholds lowered here: 6 small files, 3 delete files); small writes leave it to the schedule.
 */
describe('maintenance started by writes', () => {
  let t: TestApp, user: TestUser;
  let source: SourceDatabase;

  beforeAll(async () => {
    source = await createSourceDatabase();
    ({ t, user } = await withUser('local', {
      worker: true,
      env: { MAINTENANCE_AFTER_WRITE_SMALL_FILES: '6', MAINTENANCE_AFTER_WRITE_DELETE_FILES: '3', SYNC_BATCH_ROWS: '500' },
      label: 'after-write-maintainer',
    }));
  });
  afterAll(async () => {
    await t.stop();
    await source.drop();
  });

  /** The runs writes started for a workspace, found the way an operator finds them: by search attribute. */
  const maintenanceRuns = async (workspaceId: string, trigger: string) => {
    const ids: string[] = [];
    for await (const execution of t.infra.temporal.client.workflow.list({
      query: `OxbowWorkspaceId = '${workspaceId}' AND OxbowKind = 'maintenance' AND OxbowTrigger = '${trigger}'`,
    })) {
      ids.push(execution.workflowId);
    }
    return ids;
  };
  const afterWriteRun = (workspaceId: string) => t.infra.temporal.client.workflow.getHandle(maintenanceAfterWriteId(workspaceId));
  /** A push answers before its check ends: this waits for the workspace's check under way, if any. */
  const checked = (workspaceId: string) => t.services.maintenance.afterWrite(workspaceId, [], { trigger: 'after_push', lane: 'interactive' });
  const noRunStarted = async (workspaceId: string) => {
    await checked(workspaceId);
    const error = await afterWriteRun(workspaceId)
      .describe()
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(WorkflowNotFoundError);
  };
  const runReport = async (workspaceId: string) => {
    await checked(workspaceId);
    return (await afterWriteRun(workspaceId).result()) as MaintenanceReport;
  };

  test('pushes below the thresholds start nothing; the push that crosses one starts a run, which merges the files and keeps every row and the time travel', async () => {
    const workspace = await createWorkspace(t, user);
    let afterThird = '';
    for (let i = 1; i <= 5; i++) {
      await pushOk(t, workspace.id, user, { table: 'clicks.raw', records: [{ i, page: `/p${i}` }] });
      if (i === 3) {
        await Bun.sleep(20);
        afterThird = new Date().toISOString();
        await Bun.sleep(20);
      }
    }
    await noRunStarted(workspace.id);
    await pushOk(t, workspace.id, user, { table: 'clicks.raw', records: [{ i: 6, page: '/p6' }] });

    const report = await runReport(workspace.id);
    expect(report.dataFilesBefore).toBeGreaterThanOrEqual(6);
    expect(report.dataFilesAfter).toBe(1);
    expect(
      await eventually(
        () => maintenanceRuns(workspace.id, 'after_push'),
        (ids) => ids.length === 1,
        10_000,
      ),
    ).toEqual([maintenanceAfterWriteId(workspace.id)]);
    expect(await query(t, workspace.id, 'SELECT count(*)::INTEGER AS n, sum(i)::INTEGER AS total FROM clicks.raw')).toEqual([{ n: 6, total: 21 }]);
    expect(await query(t, workspace.id, `SELECT count(*)::INTEGER AS n FROM clicks.raw FOR SYSTEM_TIME AS OF '${afterThird}'`)).toEqual([{ n: 3 }]);
  }, 60_000);

  test('upserts that leave delete files past the threshold start a run that rewrites them away', async () => {
    const workspace = await createWorkspace(t, user);
    // Three files of ten deals each, then upserts: a delete file per data file an upsert touched.
    for (let file = 0; file < 3; file++) {
      const rows = Array.from({ length: 10 }, (_, i) => ({ id: file * 10 + i, state: 'new' }));
      await pushOk(t, workspace.id, user, { table: 'crm.deals', records: rows, primary_key: ['id'] });
    }
    await pushOk(t, workspace.id, user, {
      table: 'crm.deals',
      records: [
        { id: 1, state: 'won' },
        { id: 11, state: 'won' },
      ],
    });
    await noRunStarted(workspace.id);
    await pushOk(t, workspace.id, user, { table: 'crm.deals', records: [{ id: 21, state: 'lost' }] });

    const report = await runReport(workspace.id);
    expect(report.deleteFilesBefore).toBe(3);
    expect(report.deleteFilesAfter).toBe(0);
    expect(
      await eventually(
        () => maintenanceRuns(workspace.id, 'after_push'),
        (ids) => ids.length === 1,
        10_000,
      ),
    ).toHaveLength(1);
    expect(await query(t, workspace.id, "SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE state <> 'new')::INTEGER AS changed FROM crm.deals")).toEqual([
      { n: 30, changed: 3 },
    ]);
  }, 60_000);

  test('a sync that adds many files to a table starts a run', async () => {
    const workspace = await createWorkspace(t, user);
    await source.sql.unsafe(`CREATE TABLE visits (n int PRIMARY KEY, label text); INSERT INTO visits SELECT g, 'v' || g FROM generate_series(1, 3000) g`);
    const connection = await createConnectionOk(t, user, workspace.id, {
      name: 'web',
      connector_type: 'postgres',
      spec: postgresSpec(source),
      streams: [{ name: 'visits', sync_mode: 'full_refresh_append' }],
    });
    expect((await syncOk(t, user, workspace.id, connection.id)).records_written).toBe(3000);

    const report = (await eventually(
      () =>
        afterWriteRun(workspace.id)
          .result()
          .catch(() => undefined),
      (result) => result !== undefined,
      30_000,
    )) as MaintenanceReport;
    expect(report.dataFilesBefore).toBe(6);
    expect(report.dataFilesAfter).toBe(1);
    expect(
      await eventually(
        () => maintenanceRuns(workspace.id, 'after_sync'),
        (ids) => ids.length === 1,
        10_000,
      ),
    ).toHaveLength(1);
    expect(await query(t, workspace.id, 'SELECT count(*)::INTEGER AS n, count(DISTINCT n)::INTEGER AS d FROM web.visits')).toEqual([{ n: 3000, d: 3000 }]);
  }, 90_000);

  test('transform runs that each add a file to their table start a run once the files cross the threshold', async () => {
    const workspace = await createWorkspace(t, user);
    // A new key each run: the incremental merge deletes nothing and adds one small file.
    const transform = await createTransformOk(t, workspace.id, user, {
      name: 'ticks',
      sql: 'SELECT epoch_us(now()) AS id',
      target_table: 'marts.ticks',
      materialization: 'incremental',
      unique_key: 'id',
    });
    for (let run = 1; run <= 6; run++) {
      if (run === 6) await noRunStarted(workspace.id);
      expect((await t.request(`${transformsPath(workspace.id)}/${transform.id}/run`, { method: 'POST', token: user.accessToken })).status).toBe(200);
      await eventually(
        () => runsOf(t, workspace.id, user, transform.id),
        (runs) => runs.length === run && runs.every((entry) => entry.status === 'succeeded'),
        30_000,
      );
    }

    const report = await eventually(
      () =>
        afterWriteRun(workspace.id)
          .result()
          .catch(() => undefined),
      (result) => result !== undefined,
      30_000,
    );
    expect((report as MaintenanceReport).dataFilesAfter).toBe(1);
    expect(
      await eventually(
        () => maintenanceRuns(workspace.id, 'after_transform'),
        (ids) => ids.length === 1,
        10_000,
      ),
    ).toHaveLength(1);
    expect(await query(t, workspace.id, 'SELECT count(DISTINCT id)::INTEGER AS n FROM marts.ticks')).toEqual([{ n: 6 }]);
  }, 120_000);
});
