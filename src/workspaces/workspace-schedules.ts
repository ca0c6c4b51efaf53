import type { TemporalClient } from '../temporal/client';

/** Schedules that belong to a workspace carry its id in their memo, so a purge can find every one. */
export const workspaceScheduleMemoKey = 'workspace_id';

export async function workspaceScheduleIds(temporal: TemporalClient, workspaceId: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const schedule of temporal.client.schedule.list()) {
    if (schedule.memo?.[workspaceScheduleMemoKey] === workspaceId) ids.push(schedule.scheduleId);
  }
  return ids;
}
