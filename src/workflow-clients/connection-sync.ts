import { WorkflowNotFoundError, type WorkflowExecutionStatusName } from '@temporalio/client';
import type { Logger } from '../logging/logger';
import type { TemporalClient } from '../temporal/client';
import { RecentAnswers } from '../temporal/recent-answers';
import { deleteSchedule, ensureSchedule } from '../temporal/schedules';
import { startWorkflowOnce } from '../temporal/start-workflow';
import { connectionSyncCancelSignal, connectionSyncProgressSignal, connectionSyncStatusQuery, connectionSyncWorkflow } from '../workflows/connection-sync';
import type { LiveSyncStatus, SyncProgressNotice, SyncSchedules, SyncWorkflows } from '../connections/sync-workflows';
import type { StreamProgress } from '../connections/stream-sync';

export const connectionSyncScheduleId = (connectionId: string) => `connection-sync-${connectionId}`;

/**
 * The connection-sync workflows: a manual run under its job id, a scheduled one from the connection's
 * Temporal Schedule (overlaps skipped); asked for their live state, told of their streams' progress,
 * cancelled.
 */
export class ConnectionSyncClient implements SyncWorkflows, SyncSchedules, SyncProgressNotice {
  private readonly answers = new RecentAnswers<LiveSyncStatus | undefined>(RecentAnswers.statusMaxAgeMs);

  constructor(
    private readonly temporal: TemporalClient,
    private readonly logger: Logger,
  ) {}

  async start(job: { id: string; workspace_id: string; connection_id: string }): Promise<void> {
    await startWorkflowOnce(this.temporal, connectionSyncWorkflow, {
      workflowId: job.id,
      args: [{ workspaceId: job.workspace_id, connectionId: job.connection_id, trigger: 'manual', jobId: job.id }],
      memo: { workspace_id: job.workspace_id, connection_id: job.connection_id },
      labels: { kind: 'sync', workspaceId: job.workspace_id, objectId: job.connection_id, trigger: 'manual' },
    });
  }

  live(workflowId: string): Promise<LiveSyncStatus | undefined> {
    return this.answers.get(workflowId, () => this.ask(workflowId));
  }

  private async ask(workflowId: string): Promise<LiveSyncStatus | undefined> {
    try {
      const state = await this.temporal.call(() => this.temporal.client.workflow.getHandle(workflowId).query(connectionSyncStatusQuery), 3_000);
      return { status: state.status, startedAt: state.startedAt, streams: state.streams };
    } catch (error) {
      // A closed workflow no longer answers queries: the job record does.
      this.logger.debug('sync workflow did not answer', { workflow_id: workflowId, error });
      return undefined;
    }
  }

  async isRunning(workflowId: string): Promise<boolean> {
    try {
      const description = await this.temporal.call(() => this.temporal.client.workflow.getHandle(workflowId).describe(), 3_000);
      return description.status.name === ('RUNNING' satisfies WorkflowExecutionStatusName);
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return false;
      throw error;
    }
  }

  async cancel(workflowId: string): Promise<void> {
    try {
      await this.temporal.call(() => this.temporal.client.workflow.getHandle(workflowId).signal(connectionSyncCancelSignal));
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError)) throw error;
    }
  }

  async progress(workflowId: string, stream: string, progress: StreamProgress): Promise<void> {
    await this.temporal.call(() => this.temporal.client.workflow.getHandle(workflowId).signal(connectionSyncProgressSignal, { stream, progress }));
  }

  async ensure(connection: { id: string; workspace_id: string }, schedule: { every: string } | { cron: string }, paused: boolean): Promise<void> {
    await ensureSchedule(this.temporal, {
      ...('cron' in schedule ? { cron: schedule.cron } : { every: schedule.every }),
      scheduleId: connectionSyncScheduleId(connection.id),
      workflow: connectionSyncWorkflow,
      args: [{ workspaceId: connection.workspace_id, connectionId: connection.id, trigger: 'schedule' }],
      paused,
      memo: { workspace_id: connection.workspace_id, connection_id: connection.id },
      labels: { kind: 'sync', workspaceId: connection.workspace_id, objectId: connection.id },
    });
  }

  async remove(connectionId: string): Promise<void> {
    await deleteSchedule(this.temporal, connectionSyncScheduleId(connectionId));
  }
}
