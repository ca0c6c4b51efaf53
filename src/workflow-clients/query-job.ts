import type { Logger } from '../logging/logger';
import type { TemporalClient } from '../temporal/client';
import { startWorkflowOnce } from '../temporal/start-workflow';
import { priorityKeyOf, queryJobStartedSignal, queryJobStatusQuery, queryJobWorkflow, type QueryJobInput } from '../workflows/query-job';
import type { JobStartedNotice, LiveJobStatus, QueryJobWorkflows } from '../jobs/job-workflows';

/** The query-job workflows: started under the job id, asked for their state, told of their start, cancelled. */
export class QueryJobClient implements QueryJobWorkflows, JobStartedNotice {
  constructor(
    private readonly temporal: TemporalClient,
    readonly queryTaskQueue: string,
    private readonly timeoutMs: number,
    private readonly logger: Logger,
  ) {}

  async start(job: { id: string; workspace_id: string; priority: number }): Promise<void> {
    const input: QueryJobInput = { jobId: job.id, workspaceId: job.workspace_id, priority: job.priority, timeoutMs: this.timeoutMs, queryTaskQueue: this.queryTaskQueue };
    await startWorkflowOnce(this.temporal, queryJobWorkflow, {
      workflowId: job.id,
      args: [input],
      priority: { priorityKey: priorityKeyOf(job.priority), fairnessKey: job.workspace_id },
      memo: { workspace_id: job.workspace_id, priority: job.priority },
      labels: { kind: 'query_job', workspaceId: job.workspace_id, objectId: job.id, trigger: 'manual' },
    });
  }

  /** The workflow's own answer, with the query's progress from the running activity's last heartbeat. */
  async live(jobId: string): Promise<LiveJobStatus | undefined> {
    try {
      const handle = this.temporal.client.workflow.getHandle(jobId);
      const state = await this.temporal.call(() => handle.query(queryJobStatusQuery), 3_000);
      if (state.status !== 'running') return { status: state.status, started_at: state.startedAt, progress: null };
      const description = await this.temporal.call(() => handle.describe(), 3_000);
      const details = description.raw.pendingActivities?.[0]?.heartbeatDetails?.payloads?.[0];
      const heartbeat = details ? (this.temporal.client.options.loadedDataConverter.payloadConverter.fromPayload(details) as { progress?: number }) : undefined;
      return { status: state.status, started_at: state.startedAt, progress: heartbeat?.progress ?? 0 };
    } catch (error) {
      // A closed workflow no longer answers queries: the job record does.
      this.logger.debug('job workflow did not answer', { job_id: jobId, error });
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
