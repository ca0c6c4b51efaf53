import { defineQuery, proxyActivities, setHandler, sleep } from '@temporalio/workflow';
import type { WorkspaceActivities } from '../activities/workspace-activities';

export interface WorkspacePurgeInput {
  workspaceId: string;
  /** ISO time to start at: now for a deleted workspace, the end of retention for one owned by a deleted account. */
  purgeAfter: string;
}

export type WorkspacePurgeStep = 'waiting' | 'durable_work' | 'catalog' | 'files' | 'rows' | 'done' | 'not_deleted';
export const workspacePurgeStatusQuery = defineQuery<{ workspaceId: string; step: WorkspacePurgeStep; filesDeleted: number }>('status');

const acts = proxyActivities<WorkspaceActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', maximumInterval: '5 minutes' },
});

/**
 * Removes everything of a deleted workspace, each step idempotent so that retries and restarts are
 * harmless: its schedules and running workflows, its DuckLake catalog, its files on the lake storage, its rows.
 */
export async function workspacePurgeWorkflow(input: WorkspacePurgeInput): Promise<WorkspacePurgeStep> {
  const status = { workspaceId: input.workspaceId, step: 'waiting' as WorkspacePurgeStep, filesDeleted: 0 };
  setHandler(workspacePurgeStatusQuery, () => status);
  const wait = Date.parse(input.purgeAfter) - Date.now();
  if (wait > 0) await sleep(wait);

  if (!(await acts.isWorkspaceDeleted(input.workspaceId))) {
    status.step = 'not_deleted';
    return status.step;
  }
  status.step = 'durable_work';
  await acts.stopWorkspaceDurableWork(input.workspaceId);
  status.step = 'catalog';
  await acts.dropWorkspaceCatalog(input.workspaceId);
  status.step = 'files';
  status.filesDeleted = await acts.deleteWorkspaceFiles(input.workspaceId);
  status.step = 'rows';
  await acts.deleteWorkspaceRows(input.workspaceId);
  status.step = 'done';
  return status.step;
}
