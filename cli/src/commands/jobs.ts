import type { Command } from '@commander-js/extra-typings';
import { CommandContext, type GlobalOptions } from '../context';
import { CliError, exitCodes } from '../exit-codes';
import { finished, jobFailure, watchJob, writeJobResult, type JobStatus } from '../jobs';
import { RowWriter } from '../output/rows';
import { formatOption } from './query';

const jobColumns = [
  { key: 'job_id', header: 'JOB' },
  { key: 'status', header: 'STATUS' },
  { key: 'priority', header: 'PRIORITY' },
  { key: 'submitted_at', header: 'SUBMITTED' },
  { key: 'finished_at', header: 'FINISHED' },
];

export function registerJobs(program: Command<[], GlobalOptions>): void {
  const jobs = program.command('jobs').description('Durable query jobs');

  jobs
    .command('ls')
    .description('The workspace’s jobs, most recent first')
    .option('--status <status>', 'pending, running, succeeded, failed or cancelled')
    .option('--limit <n>', 'how many', '50')
    .option('--offset <n>', 'skip this many', '0')
    .action(async (options, command) => {
      const ctx = CommandContext.from(command.optsWithGlobals());
      const list = await ctx.api.get<JobStatus[]>('/query/jobs', {
        workspace_id: await ctx.workspaceId(),
        status: options.status,
        limit: options.limit,
        offset: options.offset,
      });
      ctx.out.list(jobColumns, list);
    });

  jobs
    .command('status')
    .description('A job’s status and progress')
    .argument('<job-id>')
    .action(async (jobId, _options, command) => {
      const ctx = CommandContext.from(command.optsWithGlobals());
      printJob(ctx, await ctx.api.get<JobStatus>(`/query/jobs/${jobId}`, { limit: 1 }));
    });

  jobs
    .command('watch')
    .description('Follow a job with a progress bar until it ends (exit status 8 if it fails)')
    .argument('<job-id>')
    .action(async (jobId, _options, command) => {
      const ctx = CommandContext.from(command.optsWithGlobals());
      const job = await watchJob(ctx, jobId);
      printJob(ctx, job);
      if (job.status !== 'succeeded') throw jobFailure(job);
    });

  jobs
    .command('cancel')
    .description('Cancel a pending or running job')
    .argument('<job-id>')
    .action(async (jobId, _options, command) => {
      const ctx = CommandContext.from(command.optsWithGlobals());
      const answer = await cancelJob(ctx, jobId);
      ctx.out.note(`Job ${jobId} cancelled`);
      if (ctx.out.mode === 'json') ctx.out.json(answer);
    });

  jobs
    .command('results')
    .description('A succeeded job’s result, page by page')
    .argument('<job-id>')
    .addOption(formatOption())
    .option('--offset <n>', 'first row', '0')
    .option('--limit <n>', 'at most this many rows')
    .option('--page-size <rows>', 'rows per request', '1000')
    .action(async (jobId, options, command) => {
      const ctx = CommandContext.from(command.optsWithGlobals());
      const writer = new RowWriter(ctx.out, RowWriter.formatFor(ctx.out, options.format));
      await writeJobResult(ctx, jobId, writer, {
        offset: Number(options.offset),
        ...(options.limit === undefined ? {} : { limit: Number(options.limit) }),
        pageSize: Number(options.pageSize),
      });
    });
}

function printJob(ctx: CommandContext, job: JobStatus): void {
  const { result, ...rest } = job;
  const summary = { ...rest, row_count: result?.row_count ?? null };
  ctx.out.record(
    [
      ['Job', 'job_id', job.job_id],
      ['Status', 'status', job.status],
      ['Progress', 'progress', job.progress === null ? null : `${Math.floor(job.progress * 100)}%`],
      ['Priority', 'priority', job.priority],
      ['Submitted', 'submitted_at', job.submitted_at],
      ['Started', 'started_at', job.started_at],
      ['Finished', 'finished_at', job.finished_at],
      ['Rows', 'row_count', result?.row_count ?? null],
      ['Error', 'error', job.error ? `${job.error.code}: ${job.error.message}` : null],
    ],
    summary,
  );
}

/**
 * A pending job is cancelled with DELETE (the interface's own way); a running one with POST
 * …/cancel. A job that starts in between is cancelled the second way.
 */
async function cancelJob(ctx: CommandContext, jobId: string): Promise<unknown> {
  const job = await ctx.api.get<JobStatus>(`/query/jobs/${jobId}`, { limit: 1 });
  if (finished(job.status))
    throw new CliError(
      `Job ${jobId} has already ${job.status === 'cancelled' ? 'been cancelled' : job.status}`,
      exitCodes.rejected,
      undefined,
      'JOB_FINISHED',
      409,
    );
  if (job.status === 'pending') {
    const answer = await ctx.api.request('DELETE', `/query/jobs/${jobId}`, { accept: [409] });
    if (answer.status === 200) return answer.body;
  }
  return ctx.api.post(`/query/jobs/${jobId}/cancel`);
}
