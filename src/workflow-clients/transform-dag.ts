import type { Logger } from '../logging/logger';
import type { TemporalClient } from '../temporal/client';
import { RecentAnswers } from '../temporal/recent-answers';
import { deleteSchedule, ensureSchedule, type ScheduleTiming } from '../temporal/schedules';
import { startWorkflowOnce } from '../temporal/start-workflow';
import type { DagRunRequest } from '../transforms/dag-run-plan';
import type { RunTrigger } from '../transforms/transform-queries';
import { parseSchedule } from '../schedules/schedule';
import type { LiveDagRun, LiveNode, TransformDagWorkflows, TransformSchedules } from '../transforms/transform-workflows';
import { transformDagStatusQuery, transformDagWorkflow, type TransformDagInput } from '../workflows/transform-dag';

export const dagWorkflowId = (dagRunId: string) => `transform-dag-${dagRunId}`;
export const dagScheduleId = (workspaceId: string) => `transform-dag-schedule-${workspaceId}`;

export interface DagRunLimits {
  maxParallel: number;
  timeoutMs: number;
}

/** The DAG run workflows: started under the DAG run's id, asked for their live state, cancelled. */
export class TransformDagClient implements TransformDagWorkflows {
  private readonly answers = new RecentAnswers<LiveDagRun | undefined>(RecentAnswers.statusMaxAgeMs);

  constructor(
    private readonly temporal: TemporalClient,
    private readonly limits: DagRunLimits,
    private readonly logger: Logger,
  ) {}

  async start(run: { workspaceId: string; dagRunId: string; request: DagRunRequest; trigger: RunTrigger; objectId: string }): Promise<void> {
    const input: TransformDagInput = { workspaceId: run.workspaceId, dagRunId: run.dagRunId, request: run.request, trigger: run.trigger, ...this.limits };
    await startWorkflowOnce(this.temporal, transformDagWorkflow, {
      workflowId: dagWorkflowId(run.dagRunId),
      args: [input],
      memo: { workspace_id: run.workspaceId, dag_run_id: run.dagRunId },
      labels: { kind: 'transform_run', workspaceId: run.workspaceId, objectId: run.objectId, trigger: run.trigger },
    });
  }

  live(dagRunId: string): Promise<LiveDagRun | undefined> {
    return this.answers.get(dagRunId, () => this.ask(dagRunId));
  }

  private async ask(dagRunId: string): Promise<LiveDagRun | undefined> {
    try {
      const state = await this.temporal.call(() => this.temporal.client.workflow.getHandle(dagWorkflowId(dagRunId)).query(transformDagStatusQuery), 3_000);
      return { status: state.status, nodes: state.nodes.map((node): LiveNode => ({ runId: node.runId, status: node.status })) };
    } catch (error) {
      this.logger.debug('transform DAG workflow did not answer', { dag_run_id: dagRunId, error });
      return undefined;
    }
  }

  async cancel(dagRunId: string): Promise<void> {
    await this.temporal.call(() => this.temporal.client.workflow.getHandle(dagWorkflowId(dagRunId)).cancel());
  }
}

/** One Temporal Schedule per workspace runs all its transforms (overlapping runs are skipped). */
export class TransformScheduleClient implements TransformSchedules {
  constructor(
    private readonly temporal: TemporalClient,
    private readonly limits: DagRunLimits,
  ) {}

  async put(workspaceId: string, schedule: string): Promise<void> {
    const input: TransformDagInput = { workspaceId, request: { kind: 'select', onlyStale: false }, trigger: 'schedule', ...this.limits };
    await ensureSchedule(this.temporal, {
      scheduleId: dagScheduleId(workspaceId),
      workflow: transformDagWorkflow,
      args: [input],
      ...timingOf(schedule),
      memo: { workspace_id: workspaceId },
      labels: { kind: 'transform_run', workspaceId },
    });
  }

  remove(workspaceId: string): Promise<void> {
    return deleteSchedule(this.temporal, dagScheduleId(workspaceId));
  }
}

/** The stored schedule (checked before it gets here) as Temporal's timing. */
function timingOf(text: string): ScheduleTiming {
  const schedule = parseSchedule(text, { minimumIntervalMs: 0 });
  if ('problem' in schedule) throw new Error(`a stored schedule does not parse: ${schedule.problem}`);
  return schedule.kind === 'every' ? { every: schedule.every } : { cron: schedule.cron };
}
