import type { Logger } from '../logging/logger';
import type { TemporalClient } from '../temporal/client';
import { startWorkflowOnce } from '../temporal/start-workflow';
import { workspaceTaskQueue } from '../temporal/task-queues';
import { priorityKeyOf, queryJobStartedSignal, queryJobWorkflow, type QueryJobInput } from '../workflows/query-job';
import type { JobStartedNotice, QueryJobWorkflows } from '../jobs/job-workflows';

/** The query-job workflows: started under the job id, asked for their progress, told of their start, cancelled. */
export class QueryJobClient implements QueryJobWorkflows, JobStartedNotice {
  constructor(
    private readonly temporal: TemporalClient,
    readonly queryTaskQueue: string,
    private readonly timeoutMs: number,
    private readonly logger: Logger,
  ) {}

  async start(job: { id: string; workspace_id: string; priority: number }): Promise<void> {
    const queryTaskQueue = workspaceTaskQueue(this.queryTaskQueue, job.workspace_id, this.temporal.shards);
    const input: QueryJobInput = { jobId: job.id, workspaceId: job.workspace_id, priority: job.priority, timeoutMs: this.timeoutMs, queryTaskQueue };
    await startWorkflowOnce(this.temporal, queryJobWorkflow, {
      workflowId: job.id,
      args: [input],
      priority: { priorityKey: priorityKeyOf(job.priority), fairnessKey: job.workspace_id },
      memo: { workspace_id: job.workspace_id, priority: job.priority },
      labels: { kind: 'query_job', workspaceId: job.workspace_id, objectId: job.id, trigger: 'manual' },
      // A client waits on a job: its first workflow task goes straight to this process's worker, if any.
      eager: true,
    });
  }

  /**
   * The progress DuckDB reported in the running activity's last heartbeat. Only the server is asked
   * (a workflow query would be a task for the worker, which clients polling a job's status every few
   * milliseconds would keep busy while it runs their queries).
   */
  async progress(jobId: string): Promise<number | undefined> {
    try {
      const description = await this.temporal.call(() => this.temporal.client.workflow.getHandle(jobId).describe(), 3_000);
      if (description.status.name !== 'RUNNING') return undefined;
      const details = description.raw.pendingActivities?.[0]?.heartbeatDetails?.payloads?.[0];
      const heartbeat = details ? (this.temporal.client.options.loadedDataConverter.payloadConverter.fromPayload(details) as { progress?: number }) : undefined;
      return heartbeat?.progress ?? 0;
    } catch (error) {
      this.logger.debug('job workflow not described', { job_id: jobId, error });
      return undefined;
    }
  }

  async started(jobId: string, startedAt: string): Promise<void> {
    await this.temporal.call(() => this.temporal.client.workflow.getHandle(jobId).signal(queryJobStartedSignal, { startedAt }));
  }

  async cancel(jobId: string): Promise<void> {
    await this.temporal.call(() => this.temporal.client.workflow.getHandle(jobId).cancel());
  }
}
