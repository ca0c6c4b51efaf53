import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy, type Workflow } from '@temporalio/client';
import type { Logger } from '../logging/logger';
import type { TemporalClient } from './client';
import { temporalCronExpressions } from '../schedules/schedule';
import { searchAttributePairs, type WorkflowLabels } from './search-attributes';
import { workspaceTaskQueue } from './task-queues';

/** When a schedule fires: every interval (`1h`, `5m`), or on a 5-field cron expression read in UTC. */
export type ScheduleTiming = { every: string; cron?: undefined } | { cron: string; every?: undefined };

/** A recurring workflow, named by the workflow it starts (its function), so its arguments are checked. */
export type ScheduleDefinition<W extends Workflow = Workflow> = ScheduleTiming & {
  scheduleId: string;
  workflow: W;
  args: Parameters<W>;
  memo?: Record<string, unknown>;
  /** Carried by the schedule and every run it starts. */
  labels: WorkflowLabels;
  /** A paused schedule keeps its definition and starts nothing until unpaused. */
  paused?: boolean;
};

/**
 * Creates a schedule, or brings an existing one to the current definition. Runs never overlap: a run
 * still going when the next is due skips that one (Temporal's overlap policy), never stacks it.
 */
export async function ensureSchedule<W extends Workflow>(temporal: TemporalClient, definition: ScheduleDefinition<W>): Promise<'created' | 'updated'> {
  const spec =
    definition.cron !== undefined
      ? { cronExpressions: temporalCronExpressions(definition.cron), timezone: 'UTC' }
      : { intervals: [{ every: definition.every }] };
  const state = { paused: definition.paused ?? false };
  const action = {
    type: 'startWorkflow' as const,
    workflowType: definition.workflow.name,
    taskQueue: workspaceTaskQueue(temporal.taskQueue, definition.labels.workspaceId, temporal.shards),
    args: definition.args as unknown[],
    workflowId: definition.scheduleId,
    typedSearchAttributes: searchAttributePairs({ ...definition.labels, trigger: 'schedule' }),
  };
  try {
    await temporal.call(() =>
      temporal.client.schedule.create({
        scheduleId: definition.scheduleId,
        spec,
        action,
        policies: { overlap: ScheduleOverlapPolicy.SKIP },
        state,
        memo: definition.memo,
        typedSearchAttributes: searchAttributePairs(definition.labels),
      }),
    );
    return 'created';
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await temporal.call(() =>
      temporal.client.schedule.getHandle(definition.scheduleId).update((previous) => ({
        ...previous,
        spec,
        action,
        state: { ...previous.state, paused: state.paused },
        typedSearchAttributes: searchAttributePairs(definition.labels),
      })),
    );
    return 'updated';
  }
}

/** Deletes a schedule by id; one that is already gone is fine (purges and deletions retry). */
export async function deleteSchedule(temporal: TemporalClient, scheduleId: string): Promise<void> {
  try {
    await temporal.call(() => temporal.client.schedule.getHandle(scheduleId).delete());
  } catch (error) {
    if (!(error instanceof ScheduleNotFoundError)) throw error;
  }
}

/** The service's own recurring workflows, created at worker start. */
export async function ensureSchedules(temporal: TemporalClient, definitions: ScheduleDefinition[], logger: Logger): Promise<void> {
  for (const definition of definitions) {
    const outcome = await ensureSchedule(temporal, definition);
    if (outcome === 'created') logger.info('schedule created', { schedule_id: definition.scheduleId, every: definition.every, cron: definition.cron });
  }
}
