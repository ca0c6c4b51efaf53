import { Context } from '@temporalio/activity';
import type { Logger } from '../logging/logger';
import type { Store, Transaction } from '../store/store';
import type { Clock } from '../util/clock';
import type { LakeStorage } from '../lake-storage/lake-storage';
import type { QueryGate, Settlement } from '../query/query-gate';
import { claimJob, completeJob, failJob, findJob, listExpiredResults, markResultDeleted, type JobRow, type JobStatus } from '../jobs/job-queries';
import { jobResultKey } from '../jobs/job-results';
import type { JobStartedNotice } from '../jobs/job-workflows';
import { addLogContext } from '../logging/log-context';

export interface QueryJobActivityDeps {
  store: Store;
  lake: LakeStorage;
  gate: QueryGate;
  /** Tells the job's workflow that its query has started. */
  notice: JobStartedNotice;
  /** Counts each run's end by its status. */
  runEnded: (status: JobStatus) => void;
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
      addLogContext({ job_id: jobId });
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
  const key = jobResultKey(job.workspace_id, job.id);
  await deps.lake.prepareFor(key);
  let progress = 0;
  const startedAt = performance.now();
  const heartbeat = setInterval(() => context.heartbeat({ progress }), 1_000);
  try {
    const settlement = await deps.gate.runToFile(
      { userId: job.user_id, apiKeyId: null, kind: 'job', jobId: job.id },
      { workspaceId: job.workspace_id, sql: job.sql, force: job.force_scan === 1 },
      deps.lake.locationOf(key),
      { timeoutMs: deps.timeoutMs, onProgress: (fraction) => (progress = fraction), signal: context.cancellationSignal },
      (tx, outcome) => recordOutcome(deps, tx, job, key, outcome),
    );
    const status = settlement.ok ? 'succeeded' : 'failed';
    deps.runEnded(status);
    deps.logger.info('query job ended', { status, ...(settlement.ok ? {} : { code: settlement.error.code }), duration_ms: Math.round(performance.now() - startedAt) });
    return status;
  } finally {
    clearInterval(heartbeat);
  }
}

/** The job's record of how its query ended; the gate writes the usage record in the same transaction. */
async function recordOutcome(deps: QueryJobActivityDeps, tx: Transaction, job: JobRow, key: string, settlement: Settlement): Promise<void> {
  const now = deps.clock.now();
  if (!settlement.ok) {
    const { error } = settlement;
    await tx.run(failJob, { id: job.id, now: now.toISOString(), code: error.code, message: error.message, hint: error.hint ?? null });
    return;
  }
  const { outcome, costEur } = settlement;
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
