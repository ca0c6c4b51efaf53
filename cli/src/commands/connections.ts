import type { Command } from '@commander-js/extra-typings';
import { CommandContext, type GlobalOptions } from '../context';
import { CliError, exitCodes } from '../exit-codes';
import { isFinal, pollUntil } from '../watch';

interface Connection {
  id: string;
  name: string;
  connector_type: string;
  status: string;
  sync_schedule: string | null;
  last_sync_at: string | null;
  last_sync_status: string | null;
}

interface SyncJob {
  id: string;
  status: string;
  streams: { name: string; status: string; records_read: number; records_written: number; error?: string }[];
  records_written: number;
  duration_ms: number | null;
  error: { code: string; message: string } | null;
}

export function registerConnections(program: Command<[], GlobalOptions>): void {
  const connections = program.command('connections').description('Connections to outside sources, and their syncs');

  connections
    .command('ls')
    .description('The workspace’s connections')
    .action(async (_options, command) => {
      const ctx = CommandContext.from(command.optsWithGlobals());
      const list = await ctx.api.get<Connection[]>(`/workspaces/${await ctx.workspaceId()}/connections`, { limit: 200 });
      ctx.out.list(
        [
          { key: 'name', header: 'NAME' },
          { key: 'connector_type', header: 'TYPE' },
          { key: 'status', header: 'STATUS' },
          { key: 'sync_schedule', header: 'SCHEDULE' },
          { key: 'last_sync_at', header: 'LAST SYNC' },
          { key: 'last_sync_status', header: 'RESULT' },
        ],
        list,
      );
    });

  connections
    .command('sync')
    .description('Start a sync of a connection (by name or id)')
    .argument('<connection>')
    .option('--stream <names...>', 'only these streams')
    .option('--full-refresh', 'read everything again, not only what changed')
    .option('--watch', 'follow the sync until it ends (exit status 8 if it fails)')
    .action(async (named, options, command) => {
      const ctx = CommandContext.from(command.optsWithGlobals());
      const base = `/workspaces/${await ctx.workspaceId()}/connections`;
      const list = await ctx.api.get<Connection[]>(base, { limit: 200 });
      const connection = list.find((entry) => entry.name === named || entry.id === named);
      if (!connection) throw new CliError(`No connection "${named}" in the workspace`, exitCodes.notFound, 'List them with `oxbow connections ls`.');
      const body = { ...(options.stream ? { streams: options.stream } : {}), ...(options.fullRefresh ? { full_refresh: true } : {}) };
      const started = await ctx.api.post<{ job_id: string; status: string }>(`${base}/${connection.id}/sync`, body);
      ctx.out.note(`Sync ${started.job_id} of ${connection.name} started`);
      if (!options.watch) {
        if (ctx.out.mode === 'json') ctx.out.json(started);
        else if (ctx.out.mode === 'plain') ctx.out.write(started.job_id);
        return;
      }
      const progress = ctx.out.progress();
      const job = await pollUntil(
        () => ctx.api.get<SyncJob>(`${base}/${connection.id}/sync-jobs/${started.job_id}`),
        (value) => isFinal(value.status),
        (value, seconds) => {
          const written = value.streams.reduce((sum, stream) => sum + stream.records_written, 0);
          const done = value.streams.filter((stream) => isFinal(stream.status)).length;
          progress.update(
            value.streams.length ? done / value.streams.length : undefined,
            `${value.status} ${seconds.toFixed(0)}s  ${written} records written`,
            true,
          );
        },
      ).finally(() => progress.done());
      ctx.out.list(
        [
          { key: 'name', header: 'STREAM' },
          { key: 'status', header: 'STATUS' },
          { key: 'records_read', header: 'READ' },
          { key: 'records_written', header: 'WRITTEN' },
          { key: 'error', header: 'ERROR' },
        ],
        job.streams,
        job,
      );
      if (job.status !== 'succeeded')
        throw new CliError(`Sync ${job.id} ${job.status}${job.error ? `: ${job.error.message}` : ''}`, exitCodes.workFailed, undefined, job.error?.code);
      ctx.out.note(`Sync ${job.id} succeeded: ${job.records_written} records written in ${((job.duration_ms ?? 0) / 1000).toFixed(1)} s`);
    });
}
