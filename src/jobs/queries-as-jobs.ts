import { AppError } from '../errors/app-error';
import { errorCatalogue, type ErrorCode } from '../errors/catalogue';
import type { LakeStorage } from '../lake-storage/lake-storage';
import type { QueryRunner } from '../engine/sql/query-runner';
import type { QueryColumn } from '../engine/sql/result-sink';
import type { ResultFormat } from '../query/formats/encoded-result';
import { encodedAnswer, encoderFor, type QueryAnswer } from '../query/query-service';
import type { Store } from '../store/store';
import { findJob, type JobRow } from './job-queries';
import type { QueryJobWorkflows } from './job-workflows';
import type { JobSubmitted, QueryJobsService } from './query-jobs-service';

export interface QueryAsJob {
  sql: string;
  format: ResultFormat;
  force: boolean;
}

/** A query's answer: its result when it ended in time, else the job it became (HTTP 202). */
export type AnswerOrJob = (QueryAnswer & { kind: 'result' }) | { kind: 'job'; job: JobSubmitted; headers: Record<string, string> };

/**
 * `POST /query` with `async_after_ms`, as Databricks' `wait_timeout` and Snowflake's asynchronous
 * statements: the query is submitted as a job (counted once, as any job) and waited for that long. A
 * job that has ended by then answers like the query would (its result read back from the job's file,
 * its error with its code); one still pending or running answers with the job, and the client follows
 * it. Nothing runs twice: there is one statement, the job's. A result larger than a query may return
 * at once, or a job cancelled meanwhile, is answered with the job too.
 */
export class QueriesAsJobs {
  constructor(
    private readonly jobs: QueryJobsService,
    private readonly workflows: Pick<QueryJobWorkflows, 'waitForEnd'>,
    private readonly store: Store,
    private readonly runner: QueryRunner,
    private readonly lake: LakeStorage,
    private readonly maxResultRows: number,
  ) {}

  async answer(userId: string, workspaceId: string, query: QueryAsJob, asyncAfterMs: number): Promise<AnswerOrJob> {
    const deadline = performance.now() + asyncAfterMs;
    const { job: submitted, headers } = await this.jobs.submit(userId, workspaceId, { sql: query.sql, priority: 5, force: query.force, format: query.format });
    const ended = await this.workflows.waitForEnd(submitted.job_id, Math.max(0, deadline - performance.now()));
    const job = ended ? await this.store.first(findJob, { id: submitted.job_id }) : undefined;
    if (job?.status === 'failed') throw errorOf(job, headers);
    if (job?.status === 'succeeded' && job.result_key && (job.row_count ?? 0) <= this.maxResultRows) return this.result(job, query.format, headers);
    return { kind: 'job', job: { ...submitted, status: job?.status ?? (await this.currentStatus(submitted)) }, headers };
  }

  private async currentStatus(submitted: JobSubmitted): Promise<JobSubmitted['status']> {
    return (await this.store.first(findJob, { id: submitted.job_id }))?.status ?? submitted.status;
  }

  private async result(job: JobRow, format: ResultFormat, headers: Record<string, string>): Promise<QueryAnswer & { kind: 'result' }> {
    const columns = JSON.parse(job.columns ?? '[]') as QueryColumn[];
    const encoder = encoderFor(format);
    const rowCount = job.row_count ?? 0;
    await this.runner.readFilePage(job.workspace_id, this.lake.locationOf(job.result_key!), 0, Math.max(1, rowCount), encoder, columns);
    const executionTimeMs = job.started_at && job.finished_at ? Date.parse(job.finished_at) - Date.parse(job.started_at) : 0;
    return encodedAnswer(
      format,
      encoder,
      { rowCount, executionTimeMs, bytesScanned: job.bytes_scanned ?? 0, costEur: job.cost_eur ?? 0, cpuMs: job.cpu_ms ?? 0 },
      headers,
    );
  }
}

/** A failed job's error as the query's own: the same code, status and hint. */
function errorOf(job: JobRow, headers: Record<string, string>): AppError {
  const code = job.error_code && Object.hasOwn(errorCatalogue, job.error_code) ? (job.error_code as ErrorCode) : 'INTERNAL_ERROR';
  return new AppError(code, job.error_message ?? 'The query failed', { hint: job.error_hint ?? undefined, headers });
}
