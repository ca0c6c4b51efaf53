import { CancelledFailure, Context } from '@temporalio/activity';
import type { Logger } from '../logging/logger';
import type { Store, Transaction } from '../store/store';
import type { Clock } from '../util/clock';
import type { LakeStorage } from '../lake-storage/lake-storage';
import type { QueryGate, Settlement } from '../query/query-gate';
import { insertRunningEntry } from '../query/history/history-queries';
import { claimJob, completeJob, failJob, findJob, listExpiredResults, markResultDeleted, type JobRow, type JobStatus } from '../jobs/job-queries';
import { jobResultKey } from '../jobs/job-results';
import type { JobStartedNotice } from '../jobs/job-workflows';
import type { JobEnd, JobLedger } from '../jobs/job-ledger';
import { lockSlots } from '../jobs/job-slots';
import { addLogContext } from '../logging/log-context';

export interface QueryJobActivityDeps {
  store: Store;
  lake: LakeStorage;
  gate: QueryGate;
  ledger: JobLedger;
  /** Tells the job's workflow that its query has started. */
  notice: JobStartedNotice;
  /** Counts each run's end by its status. */
  runEnded: (status: JobStatus) => void;
  clock: Clock;
  timeoutMs: number;
  resultRetentionMs: number;
  logger: Logger;
}

/** How a job ended, as its record says. */
export interface JobOutcome {
  status: JobStatus;
  error?: { code: string; message: string };
}

/** Progress goes out with heartbeats this often (the worker sends them at most twice a second). */
const heartbeatEveryMs = 250;

/** The query itself, on the query-job task queue (its worker's slots are the query concurrency). */
export function createQueryJobActivities(deps: QueryJobActivityDeps) {
  return {
    async runQueryJob(jobId: string): Promise<JobOutcome> {
      const job = await deps.store.first(findJob, { id: jobId });
      if (!job) throw new Error(`query job ${jobId} does not exist`);
      addLogContext({ job_id: jobId });
      const now = deps.clock.now().toISOString();
      if (!(await claim(deps, job, now))) return outcomeOf(job);
      // Not awaited: the query need not wait for the workflow to learn that it started.
      void deps.notice
        .started(jobId, job.started_at ?? now)
        .catch((error: unknown) => deps.logger.warn('could not tell the job workflow it started', { job_id: jobId, error }));
      return execute(deps, { ...job, started_at: job.started_at ?? now });
    },
  };
}

/** The job becomes running, and its history entry says so, in one transaction; false when it is not to run (cancelled meanwhile). */
async function claim(deps: QueryJobActivityDeps, job: JobRow, now: string): Promise<boolean> {
  return deps.store.transaction(async (tx) => {
    if ((await tx.run(claimJob, { id: job.id, now })) === 0) return false;
    await tx.run(insertRunningEntry, {
      id: job.id,
      workspace_id: job.workspace_id,
      kind: 'job',
      status: 'running',
      error_code: null,
      sql: job.sql,
      translated_sql: null,
      caller_type: 'user',
      caller_id: job.user_id,
      started_at_ms: Date.parse(job.started_at ?? now),
      duration_ms: 0,
      rows_returned: null,
      bytes_scanned: 0,
      cpu_ms: 0,
      cost_eur: 0,
      estimated_bytes: null,
      job_id: job.id,
    });
    return true;
  });
}

async function execute(deps: QueryJobActivityDeps, job: JobRow): Promise<JobOutcome> {
  const context = Context.current();
  const key = jobResultKey(job.workspace_id, job.id);
  await deps.lake.prepareFor(key);
  let progress = 0;
  const startedAt = performance.now();
  const heartbeat = setInterval(() => context.heartbeat({ progress }), heartbeatEveryMs);
  let admitted: string[] = [];
  try {
    const settlement = await deps.gate.runToFile(
      { userId: job.user_id, apiKeyId: null, kind: 'job', jobId: job.id, startedAt: new Date(job.started_at!) },
      { workspaceId: job.workspace_id, sql: job.sql, force: job.force_scan === 1 },
      deps.lake.locationOf(key),
      {
        timeoutMs: deps.timeoutMs,
        onProgress: (fraction) => (progress = fraction),
        signal: context.cancellationSignal,
        // Only a cancel of the job stops it for good; a worker shutting down or a lost workflow does not end it here.
        retryOnAbort: () => context.cancellationDetails?.cancelRequested !== true,
      },
      async (tx, outcome) => {
        await lockSlots(tx, job.workspace_id);
        await recordOutcome(deps, tx, job, key, outcome);
        admitted = await deps.ledger.admitWithin(tx, job.workspace_id);
      },
    );
    deps.runEnded(settlement.status);
    deps.logger.info('query job ended', {
      status: settlement.status,
      ...(settlement.status === 'failed' ? { code: settlement.error.code } : {}),
      duration_ms: Math.round(performance.now() - startedAt),
    });
    if (settlement.status === 'cancelled') throw new CancelledFailure('The job was cancelled');
    return outcomeOf((await deps.store.first(findJob, { id: job.id })) ?? job);
  } catch (error) {
    // The workflow was terminated or reset: the record is repaired from what Temporal says now.
    if (context.cancellationDetails?.notFound) await deps.ledger.reconcileById(job.id);
    throw error;
  } finally {
    clearInterval(heartbeat);
    await deps.ledger.tell(admitted);
  }
}

/** The job's record of how its query ended; the gate writes the usage record in the same transaction. */
async function recordOutcome(deps: QueryJobActivityDeps, tx: Transaction, job: JobRow, key: string, settlement: Settlement): Promise<void> {
  const now = deps.clock.now();
  switch (settlement.status) {
    case 'failed': {
      const { error } = settlement;
      await tx.run(failJob, { id: job.id, now: now.toISOString(), code: error.code, message: error.message, hint: error.hint ?? null });
      return;
    }
    case 'cancelled':
      await deps.ledger.endWithin(tx, job, { status: 'cancelled' });
      return;
    case 'succeeded': {
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
      return;
    }
    default:
      return settlement satisfies never;
  }
}

function outcomeOf(job: JobRow): JobOutcome {
  return { status: job.status, ...(job.error_code ? { error: { code: job.error_code, message: job.error_message ?? '' } } : {}) };
}

/** Bookkeeping on the main task queue: admission, jobs ended outside their query, expired results, reconciliation. */
export function createQueryJobBookkeeping(deps: Pick<QueryJobActivityDeps, 'store' | 'lake' | 'ledger' | 'clock' | 'logger'>) {
  return {
    /** True once the job holds one of its workspace's running slots (or no longer waits for one). */
    admitQueryJob(jobId: string): Promise<boolean> {
      return deps.ledger.admit(jobId);
    },

    /** A job that ended without its query recording it: cancelled while it waited, or every attempt failed. */
    async endQueryJob(jobId: string, end: JobEnd): Promise<void> {
      const job = await deps.store.first(findJob, { id: jobId });
      if (job) await deps.ledger.end(job, end);
    },

    /** What workflows started before the fair share call when every attempt of their query failed. */
    async failQueryJob(jobId: string, reason: string): Promise<void> {
      const job = await deps.store.first(findJob, { id: jobId });
      if (job) await deps.ledger.end(job, { status: 'failed', code: 'INTERNAL_ERROR', message: 'The job could not be run', hint: reason.slice(0, 300) });
    },

    reconcileQueryJobs(): Promise<{ checked: number; repaired: number; cancelled: number }> {
      return deps.ledger.sweep();
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
