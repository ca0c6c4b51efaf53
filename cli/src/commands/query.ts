import { readFileSync } from 'node:fs';
import { Option, type Command } from '@commander-js/extra-typings';
import { CommandContext, type GlobalOptions } from '../context';
import { CliError, exitCodes } from '../exit-codes';
import { jobFailure, watchJob, writeJobResult } from '../jobs';
import { RowWriter, type ResultColumn } from '../output/rows';

interface QueryResponse {
  columns: ResultColumn[];
  rows: unknown[][];
  row_count: number;
  execution_time_ms: number;
  metadata: { bytes_scanned: number; cost_eur: number };
}

export const formatOption = () =>
  new Option('--format <format>', 'table (on a terminal), tsv (otherwise), csv, json or ndjson').choices(['table', 'tsv', 'csv', 'json', 'ndjson'] as const);

export function registerQuery(program: Command<[], GlobalOptions>): void {
  program
    .command('query')
    .description('Run SQL in the workspace (Postgres-flavoured; reads only)')
    .argument('[sql]', 'the statement; or -f FILE')
    .option('-f, --file <file>', 'read the statement from a file ("-" for standard input)')
    .addOption(formatOption())
    .option('--job', 'run it as a durable job: a progress bar while it runs, then its result page by page')
    .option('--priority <n>', 'job priority, 1 to 10 (10 runs first)', '5')
    .option('--page-size <rows>', 'rows per page when reading a job’s result', '1000')
    .action(async (sqlArgument, options, command) => {
      const ctx = CommandContext.from(command.optsWithGlobals());
      const sql = await statementOf(sqlArgument, options.file);
      const writer = new RowWriter(ctx.out, RowWriter.formatFor(ctx.out, options.format));
      const workspaceId = await ctx.workspaceId();
      if (!options.job) {
        const result = await ctx.api.post<QueryResponse>(`/workspaces/${workspaceId}/query`, { sql, format: 'json' });
        writer.page(result.columns, result.rows);
        writer.end(result.row_count);
        return;
      }
      const submitted = await ctx.api.post<{ job_id: string }>('/query/jobs', { sql, workspace_id: workspaceId, priority: Number(options.priority) });
      ctx.out.note(`Job ${submitted.job_id} submitted`);
      const job = await watchJob(ctx, submitted.job_id);
      if (job.status !== 'succeeded') throw jobFailure(job);
      await writeJobResult(ctx, job.job_id, writer, { offset: 0, pageSize: Number(options.pageSize) });
    });
}

async function statementOf(argument: string | undefined, file: string | undefined): Promise<string> {
  if (argument !== undefined && file !== undefined) throw new CliError('Give the SQL or -f FILE, not both', exitCodes.usage);
  let sql = argument;
  if (file === '-') sql = await Bun.stdin.text();
  else if (file !== undefined) {
    try {
      sql = readFileSync(file, 'utf8');
    } catch (error) {
      throw new CliError(`Cannot read ${file}: ${(error as Error).message}`, exitCodes.usage);
    }
  }
  if (!sql?.trim()) throw new CliError('No SQL given', exitCodes.usage, 'oxbow query "SELECT 1", or oxbow query -f query.sql');
  return sql;
}
