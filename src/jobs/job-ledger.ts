import type { Logger } from '../logging/logger';
import type { Store, Transaction } from '../store/store';
import type { Clock } from '../util/clock';
import { cancelOpenJob, failJob, findJob, listOpenJobs, type JobRow } from './job-queries';
import { admitWaiting, lockSlots } from './job-slots';
import { endRunningEntry } from '../query/history/history-queries';
import type { JobWorkflowState, QueryJobWorkflows } from './job-workflows';

export type JobEnd = { status: 'cancelled' } | { status: 'failed'; code: string; message: string; hint?: string | null };

/** A job submitted this long ago with no workflow was never started (its process died before it could): it is started now. */
const startGraceMs = 60_000;
/** An open job is compared with Temporal by the sweep once it is this old (younger ones are still being started). */
const sweepAfterMs = 2_000;
/** A job cancelled this long ago whose workflow still runs did not get the cancel: it is sent again. */
const recancelAfterMs = 30_000;
const sweepBatch = 500;

/**
 * One truth for a job's state: the record. Everything that ends a job goes through here (the API's
 * cancel, the workflow's own cancellation and failure bookkeeping, and the reconciliation of whatever
 * ended a workflow without running its code: a terminate, a timeout, a reset), and passes the job's
 * running slot on to its workspace's next waiting job in the same transaction. The reconciliation runs
 * when an open job's status is read, when an activity finds its workflow gone, and every minute.
 */
export class JobLedger {
  constructor(
    private readonly store: Store,
    private readonly workflows: QueryJobWorkflows,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** In the caller's transaction, after it added or ended a job: the workspace's free slots go to its waiting jobs. */
  admitWithin(tx: Transaction, workspaceId: string): Promise<string[]> {
    return admitWaiting(tx, workspaceId, this.now());
  }

  /** Once the transaction has committed, the admitted jobs' workflows are told; one whose workflow is gone is reconciled. */
  async tell(admitted: readonly string[]): Promise<void> {
    for (const jobId of admitted) {
      try {
        if ((await this.workflows.admitted(jobId)) === 'gone') await this.reconcileById(jobId);
      } catch (error) {
        // The waiting workflow looks at its record again within a minute.
        this.logger.warn('an admitted job’s workflow was not told', { job_id: jobId, error });
      }
    }
  }

  /** Ends an open job as cancelled or failed (one that has ended stays as it is) and passes its slot on; true when this ended it. */
  async end(job: Pick<JobRow, 'id' | 'workspace_id'>, end: JobEnd): Promise<boolean> {
    const { ended, admitted } = await this.store.transaction(async (tx) => {
      const changed = await this.endWithin(tx, job, end);
      return { ended: changed, admitted: changed ? await this.admitWithin(tx, job.workspace_id) : [] };
    });
    await this.tell(admitted);
    if (ended) this.logger.info('query job ended', { job_id: job.id, status: end.status, ...(end.status === 'failed' ? { code: end.code } : {}) });
    return ended;
  }

  /** In the caller's transaction: the job cancelled or failed, if it was still open, and its history entry with it. */
  async endWithin(tx: Transaction, job: Pick<JobRow, 'id' | 'workspace_id'>, end: JobEnd): Promise<boolean> {
    await lockSlots(tx, job.workspace_id);
    const jobId = job.id;
    const now = this.clock.now();
    const at = now.toISOString();
    const code = end.status === 'failed' ? end.code : null;
    const changed =
      end.status === 'cancelled'
        ? await tx.run(cancelOpenJob, { id: jobId, now: at })
        : await tx.run(failJob, { id: jobId, now: at, code: end.code, message: end.message, hint: end.hint ?? null });
    await tx.run(endRunningEntry, { id: jobId, status: end.status, error_code: code, now_ms: now.getTime() });
    return changed > 0;
  }

  /**
   * Gives the job a slot if its workspace has one free; true when it holds one, or waits for nothing
   * any more. Read again under the slots' lock: a slot that freed after the first read (a job ended,
   * or was cancelled) may have gone to this job in that transaction, whose workflow is then told too.
   */
  async admit(jobId: string): Promise<boolean> {
    const job = await this.store.first(findJob, { id: jobId });
    if (!waitsForSlot(job)) return true;
    const { admitted, holds } = await this.store.transaction(async (tx) => {
      const admitted = await this.admitWithin(tx, job!.workspace_id);
      return { admitted, holds: !waitsForSlot(await tx.first(findJob, { id: jobId })) };
    });
    await this.tell(admitted.filter((id) => id !== jobId));
    return holds;
  }

  /**
   * An open job as it stands: the running query's progress, or, when its workflow has ended without
   * recording how, the record repaired first. A job that has not waited yet is not asked about.
   */
  async follow(job: JobRow): Promise<{ job: JobRow; progress: number | undefined }> {
    const waited = this.clock.now().getTime() - Date.parse(job.submitted_at) > 2_000;
    if (!isOpen(job) || (job.status === 'pending' && !waited)) return { job, progress: undefined };
    const state = await this.workflows.describe(job.id).catch((error: unknown) => {
      this.logger.debug('job workflow not described', { job_id: job.id, error });
      return undefined;
    });
    if (!state) return { job, progress: undefined };
    if (state.kind === 'running') return { job, progress: state.progress };
    return { job: await this.reconcile(job, state), progress: undefined };
  }

  async reconcileById(jobId: string): Promise<void> {
    const job = await this.store.first(findJob, { id: jobId });
    if (job && isOpen(job)) await this.reconcile(job);
  }

  /** Compares an open job with its workflow, and records the end Temporal knows of that the record does not. */
  async reconcile(job: JobRow, known?: JobWorkflowState): Promise<JobRow> {
    const state = known ?? (await this.workflows.describe(job.id));
    const end = endOf(state);
    if (state.kind === 'missing' && job.status === 'pending' && this.ageMs(job) > startGraceMs) {
      this.logger.warn('a job’s workflow was never started; starting it', { job_id: job.id });
      await this.workflows.start(job, job.admitted_at !== null);
    } else if (end && (state.kind !== 'missing' || this.ageMs(job) > startGraceMs) && (await this.end(job, end))) {
      this.logger.warn('a job’s record was repaired from its workflow', {
        job_id: job.id,
        workflow: state.kind === 'closed' ? state.outcome : state.kind,
        status: end.status,
      });
    }
    return (await this.store.first(findJob, { id: job.id })) ?? job;
  }

  /**
   * The periodic sweep: every open job is compared with its workflow, and every job workflow still
   * running whose job has been cancelled (the cancel did not reach Temporal) or purged is cancelled.
   */
  async sweep(): Promise<{ checked: number; repaired: number; cancelled: number }> {
    const before = new Date(this.clock.now().getTime() - sweepAfterMs).toISOString();
    const open = await this.store.all(listOpenJobs, { submitted_before: before, limit: sweepBatch });
    let repaired = 0;
    for (const job of open) {
      const after = await this.reconcile(job).catch((error: unknown) => {
        this.logger.warn('a job could not be compared with its workflow', { job_id: job.id, error });
        return job;
      });
      if (after.status !== job.status) repaired += 1;
    }
    let cancelled = 0;
    for (const jobId of await this.workflows.running()) {
      const job = await this.store.first(findJob, { id: jobId });
      const stale =
        !job || (job.status === 'cancelled' && job.finished_at !== null && this.clock.now().getTime() - Date.parse(job.finished_at) > recancelAfterMs);
      if (!stale) continue;
      await this.workflows
        .cancel(jobId)
        .catch((error: unknown) => this.logger.warn('a cancelled job’s workflow could not be cancelled', { job_id: jobId, error }));
      cancelled += 1;
    }
    return { checked: open.length, repaired, cancelled };
  }

  private ageMs(job: JobRow): number {
    return this.clock.now().getTime() - Date.parse(job.submitted_at);
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}

export function isOpen(job: Pick<JobRow, 'status'>): boolean {
  return job.status === 'pending' || job.status === 'running';
}

/** The end a closed (or vanished) workflow means for a job whose record is still open. */
function endOf(state: JobWorkflowState): JobEnd | undefined {
  if (state.kind === 'running') return undefined;
  if (state.kind === 'missing')
    return { status: 'failed', code: 'INTERNAL_ERROR', message: 'The job’s workflow no longer exists', hint: 'Submit the job again.' };
  switch (state.outcome) {
    case 'cancelled':
      return { status: 'cancelled' };
    case 'terminated':
      return {
        status: 'failed',
        code: 'JOB_TERMINATED',
        message: 'The job’s workflow was terminated in Temporal (an operator’s terminate or reset); its query was stopped',
        hint: 'Submit the job again.',
      };
    case 'timed_out':
      return { status: 'failed', code: 'JOB_TIMED_OUT', message: 'The job’s workflow timed out in Temporal', hint: 'Submit the job again.' };
    case 'failed':
    case 'completed':
      return { status: 'failed', code: 'INTERNAL_ERROR', message: 'The job’s workflow ended without recording its outcome', hint: 'Submit the job again.' };
    default:
      return state.outcome satisfies never;
  }
}

/** A job still waiting for one of its workspace's running slots. */
function waitsForSlot(job: JobRow | undefined): job is JobRow {
  return job !== undefined && job.status === 'pending' && job.admitted_at === null;
}
