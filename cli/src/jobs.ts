import type { CommandContext } from './context';
import { CliError, exitCodes } from './exit-codes';
import type { ResultColumn, RowWriter } from './output/rows';

export interface JobStatus {
  job_id: string;
  workspace_id: string;
  status: 'pending' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  priority: number;
  submitted_at: string;
  started_at: string | null;
  finished_at: string | null;
  progress: number | null;
  error: { code: string; message: string; hint?: string } | null;
  result: { columns: ResultColumn[]; row_count: number; rows?: unknown[][] | null; expired: boolean; offset: number; limit: number } | null;
}

export const finished = (status: JobStatus['status']) => status === 'succeeded' || status === 'failed' || status === 'cancelled';

/**
 * Polls a job until it ends, drawing its progress (DuckDB's own, 0 to 1) on the terminal: often at
 * first, then every second. Ctrl-C stops the watching, never the job.
 */
export async function watchJob(ctx: CommandContext, jobId: string): Promise<JobStatus> {
  const progress = ctx.out.progress();
  const started = performance.now();
  let delay = 100;
  try {
    for (;;) {
      const job = await ctx.api.get<JobStatus>(`/query/jobs/${jobId}`, { limit: 1 });
      if (finished(job.status)) return job;
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      progress.update(job.status === 'running' ? (job.progress ?? 0) : undefined, `${job.status} ${seconds}s  job ${jobId}`, true);
      await Bun.sleep(delay);
      delay = Math.min(1000, delay * 1.5);
    }
  } finally {
    progress.done();
  }
}

/** A job that did not succeed, as the command's failure (exit status 8). */
export function jobFailure(job: JobStatus): CliError {
  if (job.status === 'cancelled') return new CliError(`Job ${job.job_id} was cancelled`, exitCodes.workFailed, undefined, 'JOB_CANCELLED');
  return new CliError(`Job ${job.job_id} failed: ${job.error?.message ?? 'no reason given'}`, exitCodes.workFailed, job.error?.hint, job.error?.code);
}

/** Pages through a succeeded job's result into the writer. */
export async function writeJobResult(
  ctx: CommandContext,
  jobId: string,
  writer: RowWriter,
  page: { offset: number; limit?: number; pageSize: number },
): Promise<number> {
  let offset = page.offset;
  const end = page.limit === undefined ? Number.POSITIVE_INFINITY : page.offset + page.limit;
  let total = 0;
  for (;;) {
    const limit = Math.min(page.pageSize, end - offset);
    const job = await ctx.api.get<JobStatus>(`/query/jobs/${jobId}`, { offset, limit: Math.max(1, limit), format: 'json' });
    if (job.status !== 'succeeded' || !job.result) throw jobFailure(job);
    if (job.result.expired) throw new CliError(`The result of job ${jobId} has expired`, exitCodes.notFound, 'Run the query again.');
    const rows = job.result.rows ?? [];
    writer.page(job.result.columns, limit <= 0 ? [] : rows);
    total = job.result.row_count;
    offset += rows.length;
    if (rows.length === 0 || offset >= Math.min(total, end)) break;
  }
  writer.end(Math.max(0, Math.min(total, end) - page.offset));
  return total;
}
