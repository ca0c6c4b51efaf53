import { createHash } from 'node:crypto';
import { AppError } from '../errors/app-error';
import type { Logger } from '../logging/logger';
import type { Store, Transaction } from '../store/store';
import type { Clock } from '../util/clock';
import type { LakeStorage } from '../lake-storage/lake-storage';
import type { QueryRunner } from '../engine/sql/query-runner';
import { RowCollector, type QueryColumn } from '../engine/sql/result-sink';
import type { WorkspaceAccess } from '../workspaces/workspace-access';
import type { Membership } from '../workspaces/workspace-view';
import { allows } from '../workspaces/roles';
import { rateLimitHeaders } from '../query/rate-limiter';
import { checkInputLimits } from '../engine/sql/input-limits';
import type { QueryGate } from '../query/query-gate';
import { cancelPendingJob, countJobs, findJob, findJobByIdempotencyKey, insertJob, listJobs, type JobRow, type JobStatus } from './job-queries';
import type { JobLedger } from './job-ledger';
import { lockSlots } from './job-slots';
import type { QueryJobWorkflows } from './job-workflows';
import type { ResultFormat } from '../query/formats/encoded-result';
import { resultPage } from './result-page';
import { jobStatusView, type JobResultSummary, type JobResultView, type JobStatusView } from './job-view';

export interface JobSubmission {
  sql: string;
  priority: number;
  force: boolean;
  format: ResultFormat;
}

/** A page of the result; the format defaults to the one the job was submitted with. */
export interface ResultPageRequest {
  offset: number;
  limit: number;
  format?: ResultFormat;
}

export interface JobSubmitted {
  job_id: string;
  status: JobStatus;
  priority: number;
  submitted_at: string;
}

/** A job and the caller's membership of its workspace. */
export interface VisibleJob {
  job: JobRow;
  membership: Membership;
}

export interface JobListRequest {
  status?: JobStatus;
  limit: number;
  offset: number;
}

/**
 * Asynchronous query jobs: submission counts the job against the workspace's rate limit, records it
 * and gives it a running slot if its workspace has one free, in one transaction, then starts its
 * workflow; a workflow that cannot be started marks the job failed, so no job is lost or counted twice.
 */
export class QueryJobsService {
  constructor(
    private readonly store: Store,
    private readonly access: WorkspaceAccess,
    private readonly gate: QueryGate,
    private readonly workflows: QueryJobWorkflows,
    private readonly ledger: JobLedger,
    private readonly runner: QueryRunner,
    private readonly lake: LakeStorage,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async submit(
    userId: string,
    workspaceId: string,
    submission: JobSubmission,
    idempotencyKey?: string,
  ): Promise<{ job: JobSubmitted; headers: Record<string, string> }> {
    // A query too large to ever compile is refused now rather than when its turn comes.
    checkInputLimits(submission.sql);
    const requestHash = createHash('sha256').update(JSON.stringify(submission)).digest('hex');
    const plan = await this.gate.plan(workspaceId);
    const outcome = await this.store.transaction(async (tx) => {
      if (idempotencyKey) {
        await tx.lock(`job-idempotency:${workspaceId}:${userId}:${idempotencyKey}`);
        const existing = await tx.first(findJobByIdempotencyKey, { workspace_id: workspaceId, user_id: userId, key: idempotencyKey });
        if (existing) {
          if (existing.request_hash !== requestHash)
            throw new AppError('CONFLICT', 'This Idempotency-Key was already used with a different job', { hint: 'Use a new key for a new job.' });
          return { job: existing, headers: {}, replayed: true, admitted: [] };
        }
      }
      const rate = await this.gate.admitWithin(tx, workspaceId, plan);
      const job = {
        id: Bun.randomUUIDv7(),
        workspace_id: workspaceId,
        user_id: userId,
        sql: submission.sql,
        priority: submission.priority,
        force_scan: submission.force ? 1 : 0,
        result_format: submission.format,
        idempotency_key: idempotencyKey ?? null,
        request_hash: requestHash,
        now: this.clock.now().toISOString(),
      };
      await tx.run(insertJob, job);
      const admitted = await this.ledger.admitWithin(tx, workspaceId);
      return { job: (await tx.first(findJob, { id: job.id }))!, headers: rateLimitHeaders(rate), replayed: false, admitted };
    });
    if (!outcome.replayed) {
      await this.startOrFail(outcome.job, outcome.admitted.includes(outcome.job.id));
      // Others admitted with it: a plan that allows more at once now.
      await this.ledger.tell(outcome.admitted.filter((id) => id !== outcome.job.id));
    }
    const current = (await this.store.first(findJob, { id: outcome.job.id }))!;
    return { job: { job_id: current.id, status: current.status, priority: current.priority, submitted_at: current.submitted_at }, headers: outcome.headers };
  }

  /**
   * The job record answers: it follows the job through every state (claimed as running when its query
   * starts, completed with its result and usage in one transaction, cancelled, failed), so a client
   * sees the outcome as soon as it is committed, without waiting for the workflow to close. An open
   * job is checked against its workflow (see JobLedger.follow): a running query's progress, or the
   * end of a workflow stopped in Temporal, recorded before the answer. `found` is the job as the
   * caller found it (see `find`; the ledger ends a job only as cancelled or failed): one that succeeded
   * since then shows its rows at the next read, routed to where they are read.
   */
  async status(found: VisibleJob, page: ResultPageRequest): Promise<JobStatusView> {
    const { job, progress } = await this.ledger.follow(found.job);
    return jobStatusView(job, progress, job.status === 'succeeded' ? await this.result(job, page) : null);
  }

  /**
   * Whether answering with the job reads its result: a page of a result file is read by the
   * workspace's query instance (DuckDB reading the Parquet file from the lake, with the workspace's
   * storage credentials), so among API replicas it is read on the workspace's owner.
   */
  readsResult(job: JobRow): boolean {
    return job.status === 'succeeded' && job.result_key !== null && !this.summary(job).expired;
  }

  /** A workspace's jobs, most recent first, without their rows. */
  async list(workspaceId: string, request: JobListRequest): Promise<{ jobs: JobStatusView[]; total: number }> {
    const filter = { workspace_id: workspaceId, status: request.status ?? null };
    const [rows, count] = await Promise.all([
      this.store.all(listJobs, { ...filter, limit: request.limit, offset: request.offset }),
      this.store.first(countJobs, filter),
    ]);
    const jobs = await Promise.all(
      rows.map(async (recorded) => {
        const { job, progress } = recorded.status === 'running' ? await this.ledger.follow(recorded) : { job: recorded, progress: undefined };
        return jobStatusView(job, progress, job.status === 'succeeded' ? this.summary(job) : null);
      }),
    );
    return { jobs, total: Number(count?.total ?? 0) };
  }

  /** `DELETE`: the spec's cancel, of a pending job only (409 JOB_NOT_PENDING otherwise). */
  async cancelPending(userId: string, jobId: string): Promise<{ job_id: string; status: 'cancelled' }> {
    return this.cancelWith(
      userId,
      jobId,
      async (tx) => (await tx.run(cancelPendingJob, { id: jobId, now: this.clock.now().toISOString() })) > 0,
      (status) =>
        new AppError('JOB_NOT_PENDING', `The job is ${status}; only a pending job can be cancelled`, {
          hint: 'POST /query/jobs/{job_id}/cancel stops a running job.',
        }),
    );
  }

  /** Cancels a pending or running job: a running query is interrupted and billed for what it ran (409 JOB_FINISHED once it has ended). */
  async cancel(userId: string, jobId: string): Promise<{ job_id: string; status: 'cancelled' }> {
    return this.cancelWith(
      userId,
      jobId,
      (tx, job) => this.ledger.endWithin(tx, job, { status: 'cancelled' }),
      (status) => new AppError('JOB_FINISHED', `The job has already ${status === 'cancelled' ? 'been cancelled' : status}`),
    );
  }

  /**
   * The record says cancelled first (a query that starts now finds it so and does not run) and its slot
   * goes to the workspace's next job; then the workflow is cancelled, which removes a queued query or
   * interrupts a running one. A cancel that cannot reach Temporal now is sent again by the reconciliation.
   */
  private async cancelWith(
    userId: string,
    jobId: string,
    cancelled: (tx: Transaction, job: JobRow) => Promise<boolean>,
    refused: (status: JobStatus) => AppError,
  ) {
    const { job, membership } = await this.find(userId, jobId);
    if (job.user_id !== userId && !allows(membership.role, 'members:manage')) {
      throw new AppError('INSUFFICIENT_ROLE', 'Only whoever submitted the job, or an owner or admin of the workspace, can cancel it');
    }
    const admitted = await this.store.transaction(async (tx) => {
      await lockSlots(tx, job.workspace_id);
      if (!(await cancelled(tx, job))) return undefined;
      return this.ledger.admitWithin(tx, job.workspace_id);
    });
    if (!admitted) throw refused((await this.store.first(findJob, { id: jobId }))?.status ?? job.status);
    await this.workflows
      .cancel(jobId)
      .catch((error: unknown) => this.logger.warn('job workflow not cancelled now; the reconciliation sends it again', { job_id: jobId, error }));
    await this.ledger.tell(admitted);
    return { job_id: jobId, status: 'cancelled' as const };
  }

  private async startOrFail(job: JobRow, admitted: boolean): Promise<void> {
    try {
      await this.workflows.start(job, admitted);
    } catch (error) {
      await this.ledger.end(job, { status: 'failed', code: 'SERVICE_UNAVAILABLE', message: 'The job could not be scheduled', hint: 'Submit it again.' });
      throw new AppError('SERVICE_UNAVAILABLE', 'The job could not be scheduled; it is recorded as failed', {
        hint: `Job ${job.id}. Submit it again in a moment.`,
        cause: error,
      });
    }
  }

  /** A job the caller may see: one of a workspace they belong to. Others are 404, not 403: their existence is not told. */
  async find(userId: string, jobId: string): Promise<VisibleJob> {
    const job = await this.store.first(findJob, { id: jobId });
    const membership = job && (await this.access.authorize(userId, job.workspace_id, 'data:read').catch(() => undefined));
    if (!job || !membership) throw new AppError('NOT_FOUND', 'No such job');
    return { job, membership };
  }

  /** A succeeded job's result without its rows. */
  private summary(job: JobRow): JobResultSummary {
    return {
      columns: JSON.parse(job.columns ?? '[]') as QueryColumn[],
      row_count: job.row_count ?? 0,
      bytes_scanned: job.bytes_scanned ?? 0,
      cost_eur: job.cost_eur ?? 0,
      cpu_ms: job.cpu_ms ?? 0,
      expired: job.result_deleted_at !== null || (job.result_expires_at !== null && job.result_expires_at <= this.clock.now().toISOString()),
      expires_at: job.result_expires_at,
    };
  }

  private async result(job: JobRow, page: ResultPageRequest): Promise<JobResultView> {
    const summary = { ...this.summary(job), offset: page.offset, limit: page.limit };
    if (summary.expired || !job.result_key) return { ...summary, rows: null };
    const collector = new RowCollector();
    await this.runner.readFilePage(job.workspace_id, this.lake.locationOf(job.result_key), page.offset, page.limit, collector, summary.columns);
    return { ...summary, ...resultPage(page.format ?? job.result_format, summary.columns, collector.collected) };
  }
}
