import { ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import type { Logger } from '../logging/logger';
import type { TemporalClient } from './client';

export interface ScheduleDefinition {
  scheduleId: string;
  workflowType: string;
  every: string;
  args?: unknown[];
  memo?: Record<string, unknown>;
}

/**
 * Creates the service's own recurring workflows as Temporal Schedules (visible and pausable in the
 * UI). Idempotent: a schedule that exists is updated to the current definition.
 */
export async function ensureSchedules(temporal: TemporalClient, definitions: ScheduleDefinition[], logger: Logger): Promise<void> {
  for (const definition of definitions) {
    const options = {
      scheduleId: definition.scheduleId,
      spec: { intervals: [{ every: definition.every }] },
      action: {
        type: 'startWorkflow' as const,
        workflowType: definition.workflowType,
        taskQueue: temporal.taskQueue,
        args: definition.args ?? [],
        workflowId: definition.scheduleId,
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
      memo: definition.memo,
    };
    try {
      await temporal.client.schedule.create(options);
      logger.info('schedule created', { schedule_id: definition.scheduleId, every: definition.every });
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw error;
      await temporal.client.schedule.getHandle(definition.scheduleId).update((previous) => ({ ...previous, spec: options.spec, action: options.action }));
    }
  }
}
