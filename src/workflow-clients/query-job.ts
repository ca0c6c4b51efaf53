import { isGrpcDeadlineError, ServiceError, WorkflowFailedError, WorkflowNotFoundError, type WorkflowExecutionDescription } from '@temporalio/client';
import type { Logger } from '../logging/logger';
import type { TemporalClient } from '../temporal/client';
import { startWorkflowOnce } from '../temporal/start-workflow';
import { shardTaskQueue, workspaceTaskQueue } from '../temporal/task-queues';
import { priorityKeyOf, queryJobAdmittedSignal, queryJobStartedSignal, queryJobWorkflow, type QueryJobInput } from '../workflows/query-job';
import type { JobStartedNotice, JobWorkflowState, QueryJobWorkflows } from '../jobs/job-workflows';

/**
 * The query-job workflows: started under the job id, described, told of their admission and start,
 * cancelled. The one place that chooses their task queues: the workflow on the service's, its query
 * on the query-job queue.
 */
export class QueryJobClient implements QueryJobWorkflows, JobStartedNotice {
  constructor(
    private readonly temporal: TemporalClient,
    readonly queryTaskQueue: string,
    private readonly timeoutMs: number,
    private readonly logger: Logger,
  ) {}

  async start(job: { id: string; workspace_id: string; priority: number }, admitted: boolean): Promise<void> {
    const queryTaskQueue = workspaceTaskQueue(this.queryTaskQueue, job.workspace_id, this.temporal.shards);
    const input: QueryJobInput = { jobId: job.id, workspaceId: job.workspace_id, priority: job.priority, timeoutMs: this.timeoutMs, queryTaskQueue, admitted };
    await startWorkflowOnce(this.temporal, queryJobWorkflow, {
      workflowId: job.id,
      args: [input],
      priority: { priorityKey: priorityKeyOf(job.priority), fairnessKey: job.workspace_id },
      memo: { workspace_id: job.workspace_id, priority: job.priority },
      labels: { kind: 'query_job', workspaceId: job.workspace_id, objectId: job.id, trigger: 'manual', status: 'pending' },
      // A client waits on a job: its first workflow task goes straight to this process's worker, if any.
      eager: true,
    });
  }

  /**
   * The workflow as the server describes it, with the progress of a running query from its
   * activity's last heartbeat. Only the server is asked (a workflow query would be a task for the
   * worker, which clients polling a job's status every few milliseconds would keep busy).
   */
  async describe(jobId: string): Promise<JobWorkflowState> {
    let description: WorkflowExecutionDescription;
    try {
      description = await this.temporal.call(() => this.temporal.client.workflow.getHandle(jobId).describe(), 3_000);
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return { kind: 'missing' };
      throw error;
    }
    switch (description.status.name) {
      case 'RUNNING':
      case 'PAUSED':
      case 'UNSPECIFIED':
      case 'UNKNOWN':
      case 'CONTINUED_AS_NEW':
        return { kind: 'running', progress: this.heartbeatProgress(description) };
      case 'COMPLETED':
        return { kind: 'closed', outcome: 'completed' };
      case 'CANCELLED':
        return { kind: 'closed', outcome: 'cancelled' };
      case 'TERMINATED':
        return { kind: 'closed', outcome: 'terminated' };
      case 'TIMED_OUT':
        return { kind: 'closed', outcome: 'timed_out' };
      case 'FAILED':
        return { kind: 'closed', outcome: 'failed' };
      default:
        return description.status.name satisfies never;
    }
  }

  async started(jobId: string, startedAt: string): Promise<void> {
    await this.temporal.call(() => this.temporal.client.workflow.getHandle(jobId).signal(queryJobStartedSignal, { startedAt }));
  }

  async admitted(jobId: string): Promise<'delivered' | 'gone'> {
    try {
      await this.temporal.call(() => this.temporal.client.workflow.getHandle(jobId).signal(queryJobAdmittedSignal));
      return 'delivered';
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return 'gone';
      throw error;
    }
  }

  async cancel(jobId: string): Promise<void> {
    try {
      await this.temporal.call(() => this.temporal.client.workflow.getHandle(jobId).cancel());
    } catch (error) {
      // Closed already (or never started): nothing to cancel.
      if (!(error instanceof WorkflowNotFoundError)) throw error;
    }
  }

  async waitForEnd(jobId: string, ms: number): Promise<boolean> {
    // The submit took all the time there was: nothing to wait for.
    if (ms <= 0) return false;
    try {
      await this.temporal.connection.withDeadline(Date.now() + ms, () => this.temporal.client.workflow.getHandle(jobId).result());
      return true;
    } catch (error) {
      // A failed or cancelled job has ended too; its record says how.
      if (error instanceof WorkflowFailedError) return true;
      if (isGrpcDeadlineError(error instanceof ServiceError ? error.cause : error)) return false;
      // The job was submitted and goes on whatever the wait met: its client follows it as a job.
      this.logger.warn('waiting for a job to end failed; it is answered as a job', { job_id: jobId, error });
      return false;
    }
  }

  /** This deployment's only (its task queue and that queue's shards): another one sharing the namespace keeps its own jobs. */
  async running(): Promise<string[]> {
    const queues = [
      this.temporal.taskQueue,
      ...Array.from({ length: this.temporal.shards > 1 ? this.temporal.shards : 0 }, (_, shard) => shardTaskQueue(this.temporal.taskQueue, shard)),
    ];
    const query = `OxbowKind = 'query_job' AND ExecutionStatus = 'Running' AND TaskQueue IN (${queues.map(visibilityString).join(', ')})`;
    const ids: string[] = [];
    for await (const execution of this.temporal.client.workflow.list({ query })) ids.push(execution.workflowId);
    return ids;
  }

  private heartbeatProgress(description: WorkflowExecutionDescription): number | undefined {
    const details = description.raw.pendingActivities?.[0]?.heartbeatDetails?.payloads?.[0];
    if (!details) return undefined;
    return (this.temporal.client.options.loadedDataConverter.payloadConverter.fromPayload(details) as { progress?: number }).progress;
  }
}

/** A string literal of a visibility query (its quotes escaped as the query language's lexer reads them). */
function visibilityString(value: string): string {
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}
