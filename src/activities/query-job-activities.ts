import { Context } from '@temporalio/activity';
import { AppError } from '../errors/app-error';
import type { Logger } from '../logging/logger';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { LakeStorage } from '../lake-storage/lake-storage';
import type { QueryRunner } from '../engine/sql/query-runner';
import { findWorkspacePlan } from '../plans/plan-queries';
import { costOf } from '../query/query-service';
import type { UsageRecorder } from '../query/usage-recorder';
import { claimJob, completeJob, failJob, findJob, listExpiredResults, markResultDeleted, type JobRow, type JobStatus } from '../jobs/job-queries';
import { jobResultKey } from '../jobs/job-results';
import type { JobStartedNotice } from '../jobs/job-workflows';

export interface QueryJobActivityDeps {
  store: Store;
  lake: LakeStorage;
  runner: QueryRunner;
  usage: UsageRecorder;
  /** Tells the job's workflow that its query has started. */
  notice: JobStartedNotice;
  clock: Clock;
  timeoutMs: number;
  resultRetentionMs: number;
  logger: Logger;
}

/** The query itself, on the query-job task queue (its worker's slots are the query concurrency). */
export function createQueryJobActivities(deps: QueryJobActivityDeps) {
  return {
    async runQueryJob(jobId: string): Promise<JobStatus> {
      const job = await deps.store.first(findJob, { id: jobId });
      if (!job) throw new Error(`query job ${jobId} does not exist`);
      const now = deps.clock.now().toISOString();
      if ((await deps.store.run(claimJob, { id: jobId, now })) === 0) return job.status;
      // Not awaited: the query need not wait for the workflow to learn that it started.
      void deps.notice
        .started(jobId, job.started_at ?? now)
        .catch((error: unknown) => deps.logger.warn('could not tell the job workflow it started', { job_id: jobId, error }));
      return execute(deps, job);
    },
  };
}

async function execute(deps: QueryJobActivityDeps, job: JobRow): Promise<JobStatus> {
  const context = Context.current();
  const plan = await deps.store.first(findWorkspacePlan, { workspace_id: job.workspace_id });
  if (!plan) return finishFailed(deps, job, new AppError('WORKSPACE_ACCESS_DENIED', 'The workspace no longer exists'), 0);
  const key = jobResultKey(job.workspace_id, job.id);
  await deps.lake.prepareFor(key);
  let progress = 0;
  const heartbeat = setInterval(() => context.heartbeat({ progress }), 1_000);
  const startedAt = performance.now();
  try {
    const outcome = await deps.runner.runToFile(job.workspace_id, job.sql, deps.lake.locationOf(key), {
      timeoutMs: deps.timeoutMs,
      scanLimitBytes: job.force_scan ? undefined : plan.max_scan_bytes,
      onProgress: (fraction) => (progress = fraction),
      signal: context.cancellationSignal,
    });
    const costEur = costOf(outcome.bytesScanned, plan);
    const now = deps.clock.now();
    // The outcome and its usage record land together: a worker dying between them cannot lose the record.
    await deps.store.transaction(async (tx) => {
      await tx.run(completeJob, {
        id: job.id,
        now: now.toISOString(),
        columns: JSON.stringify(outcome.columns),
        row_count: outcome.rowCount,
        bytes_scanned: outcome.bytesScanned,
        cpu_ms: outcome.cpuMs,
        cost_eur: costEur,
        result_key: key,
        result_expires_at: new Date(now.getTime() + deps.resultRetentionMs).toISOString(),
      });
      await deps.usage.record(
        { ...usageOf(job), status: 'succeeded', errorCode: null, bytesScanned: outcome.bytesScanned, cpuMs: outcome.cpuMs, rowsReturned: outcome.rowCount, durationMs: outcome.elapsedMs, costEur },
        tx,
      );
    });
    return 'succeeded';
  } catch (error) {
    // A cancelled attempt (cancellation reaches here as an interrupted query) ends the activity as cancelled.
    if (context.cancellationSignal.aborted) throw context.cancellationSignal.reason;
    // The query's own errors are the job's result; anything else is retried by Temporal.
    if (error instanceof AppError && error.status < 500) return finishFailed(deps, job, error, performance.now() - startedAt);
    throw error;
  } finally {
    clearInterval(heartbeat);
  }
}

async function finishFailed(deps: QueryJobActivityDeps, job: JobRow, error: AppError, durationMs: number): Promise<JobStatus> {
  await deps.store.transaction(async (tx) => {
    await tx.run(failJob, { id: job.id, now: deps.clock.now().toISOString(), code: error.code, message: error.message, hint: error.hint ?? null });
    await deps.usage.record({ ...usageOf(job), status: 'failed', errorCode: error.code, bytesScanned: 0, cpuMs: 0, rowsReturned: 0, durationMs, costEur: 0 }, tx);
  });
  return 'failed';
}

function usageOf(job: JobRow) {
  return { workspaceId: job.workspace_id, userId: job.user_id, apiKeyId: null, source: 'job' as const, sql: job.sql, jobId: job.id };
}

/** Bookkeeping on the main task queue: a job whose attempts all failed, and expired results. */
export function createQueryJobBookkeeping(deps: Pick<QueryJobActivityDeps, 'store' | 'lake' | 'clock' | 'logger'>) {
  return {
    async failQueryJob(jobId: string, reason: string): Promise<void> {
      await deps.store.run(failJob, { id: jobId, now: deps.clock.now().toISOString(), code: 'INTERNAL_ERROR', message: 'The job could not be run', hint: reason.slice(0, 300) });
    },

    async deleteExpiredJobResults(): Promise<number> {
      const now = deps.clock.now().toISOString();
      const expired = await deps.store.all(listExpiredResults, { now, limit: 1_000 });
      for (const job of expired) {
        await deps.lake.delete(job.result_key);
        await deps.store.run(markResultDeleted, { id: job.id, now });
      }
      if (expired.length) deps.logger.info('expired job results deleted', { count: expired.length });
      return expired.length;
    },
  };
}

export type QueryJobActivities = ReturnType<typeof createQueryJobActivities>;
export type QueryJobBookkeeping = ReturnType<typeof createQueryJobBookkeeping>;
