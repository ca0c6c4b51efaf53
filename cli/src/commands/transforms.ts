import type { Command } from '@commander-js/extra-typings';
import { CommandContext, type GlobalOptions } from '../context';
import { CliError, exitCodes } from '../exit-codes';
import { isFinal, pollUntil } from '../watch';

interface TransformRun {
  id: string;
  transform_id: string;
  transform_name: string;
  dag_run_id: string | null;
  status: string;
  rows_written: number | null;
  duration_ms: number | null;
  error?: { code?: string; message?: string } | string | null;
}

interface DagRun {
  dag_run_id: string;
  status: string;
  order: string[];
  runs: TransformRun[];
}

export function registerTransforms(program: Command<[], GlobalOptions>): void {
  const transforms = program.command('transforms').description('SQL transforms');

  transforms
    .command('run')
    .description('Run transforms in dependency order as one DAG run (all of them unless --select)')
    .option('--select <selector>', 'dbt-style: name, +name (with what it depends on), name+ (with what depends on it)')
    .option('--only-stale', 'of those, only the stale ones')
    .option('--watch', 'follow the run until it ends (exit status 8 if a transform fails)')
    .action(async (options, command) => {
      const ctx = CommandContext.from(command.optsWithGlobals());
      const base = `/workspaces/${await ctx.workspaceId()}/transforms`;
      const body = { ...(options.select ? { select: options.select } : {}), ...(options.onlyStale ? { only_stale: true } : {}) };
      let run = await ctx.api.post<DagRun>(`${base}/run`, body);
      ctx.out.note(`DAG run ${run.dag_run_id}: ${run.order.length} transform${run.order.length === 1 ? '' : 's'}, ${run.status}`);
      if (options.watch && !isFinal(run.status)) {
        const progress = ctx.out.progress();
        const runs = await pollUntil(
          () => runsOf(ctx, base, run),
          (current) => current.length === run.order.length && current.every((entry) => isFinal(entry.status)),
          (current, seconds) =>
            progress.update(current.filter((entry) => isFinal(entry.status)).length / Math.max(1, run.order.length), `${seconds.toFixed(0)}s`, true),
        ).finally(() => progress.done());
        run = {
          ...run,
          runs,
          status: runs.some((entry) => entry.status === 'failed') ? 'failed' : runs.some((entry) => entry.status === 'cancelled') ? 'cancelled' : 'succeeded',
        };
      }
      ctx.out.list(
        [
          { key: 'transform_name', header: 'TRANSFORM' },
          { key: 'status', header: 'STATUS' },
          { key: 'rows_written', header: 'ROWS' },
          { key: 'duration_ms', header: 'MS' },
          { key: 'error', header: 'ERROR' },
        ],
        run.runs.map((entry) => ({ ...entry, error: typeof entry.error === 'object' && entry.error ? entry.error.message : entry.error })),
        run,
      );
      if (options.watch && run.status !== 'succeeded') throw new CliError(`DAG run ${run.dag_run_id} ${run.status}`, exitCodes.workFailed);
    });
}

/** The runs of one DAG run, read from each transform's recent runs. */
async function runsOf(ctx: CommandContext, base: string, run: DagRun): Promise<TransformRun[]> {
  const found = await Promise.all(
    run.order.map(async (transformId) =>
      (await ctx.api.get<TransformRun[]>(`${base}/${transformId}/runs`, { limit: 20 })).find((entry) => entry.dag_run_id === run.dag_run_id),
    ),
  );
  return found.filter((entry): entry is TransformRun => entry !== undefined);
}
