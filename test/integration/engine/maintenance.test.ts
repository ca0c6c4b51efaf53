import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import { createWorkspace } from '../../support/workspaces';
import { pushOk, query } from '../../support/lake';
import { maintenanceScheduleId } from '../../../src/workflow-clients/workspace-maintenance';
import type { MaintenanceReport } from '../../../src/engine/maintenance/run-maintenance';
import { workspaceMaintenanceStatusQuery } from '../../../src/workflows/workspace-maintenance';
import { createLakeActivities } from '../../../src/activities/lake-activities';
import { withUser } from '../../support/fixtures';

describe('lake maintenance', () => {
  let t: TestApp, user: TestUser;
  beforeAll(async () => ({ t, user } = await withUser('local', { worker: true, label: 'maintainer' })));
  afterAll(() => t.stop());

  test('each workspace gets a maintenance schedule; a run merges the small files of many pushes and keeps the data', async () => {
    const workspace = await createWorkspace(t, user);
    const schedule = t.infra.temporal.client.schedule.getHandle(maintenanceScheduleId(workspace.id));
    const description = await schedule.describe();
    expect(description.memo).toEqual({ workspace_id: workspace.id });

    for (let i = 0; i < 12; i++) await pushOk(t, workspace.id, user, { table: 'small.bits', records: [{ i, label: `push ${i}` }] });
    await schedule.trigger();
    const runId = () => schedule.describe().then((d) => d.info.recentActions.at(-1)?.action.workflow.workflowId);
    for (let waited = 0; !(await runId()) && waited < 20_000; waited += 200) await Bun.sleep(200);
    const handle = t.infra.temporal.client.workflow.getHandle((await runId())!);
    const report = (await handle.result()) as MaintenanceReport;
    expect(report.dataFilesBefore).toBe(12);
    expect(report.dataFilesAfter).toBe(1);
    // What an operator asks in the UI's Queries tab.
    expect(await handle.query(workspaceMaintenanceStatusQuery)).toEqual({ workspaceId: workspace.id, state: 'done', report });
    expect(await query(t, workspace.id, 'SELECT count(*)::INTEGER AS n, sum(i)::INTEGER AS total FROM small.bits')).toEqual([{ n: 12, total: 66 }]);
  }, 60_000);

  test('a scheduled run and one started by writes take turns: the later one finds the merge done and fails nothing', async () => {
    const workspace = await createWorkspace(t, user);
    for (let i = 0; i < 8; i++) await pushOk(t, workspace.id, user, { table: 'small.turns', records: [{ i }] });
    const activities = createLakeActivities({
      store: t.infra.store,
      engines: t.services.engine.engines,
      targetFileSizeBytes: t.services.config.maintenance.targetFileSizeBytes,
      logger: t.services.logger,
    });
    const reports = (await Promise.all([
      activities.maintainWorkspaceLake(workspace.id),
      activities.maintainWorkspaceLake(workspace.id),
    ])) as MaintenanceReport[];
    expect(reports.map((report) => [report.dataFilesBefore, report.dataFilesAfter])).toEqual([
      [8, 1],
      [1, 1],
    ]);
    expect(await query(t, workspace.id, 'SELECT count(*)::INTEGER AS n, sum(i)::INTEGER AS total FROM small.turns')).toEqual([{ n: 8, total: 28 }]);
  }, 60_000);
});
