import type { Command } from '@commander-js/extra-typings';
import { CommandContext, type GlobalOptions } from '../context';

interface TableEntry {
  name: string;
  schema_name: string;
  row_count: number;
  size_bytes: number;
  column_count: number;
}

interface TableDetail extends TableEntry {
  table: string;
  columns: { name: string; type: string; nullable: boolean }[];
  file_count: number;
  primary_key: string[] | null;
  created_at: string;
  updated_at: string;
  current_snapshot: number;
  earliest_snapshot_at: string;
}

export function humanBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

export function registerTables(program: Command<[], GlobalOptions>): void {
  const tables = program.command('tables').description('The workspace’s lake tables');

  tables
    .command('ls')
    .description('Tables with their rows and size')
    .action(async (_options, command) => {
      const ctx = CommandContext.from(command.optsWithGlobals());
      const { tables: list } = await ctx.api.get<{ tables: TableEntry[] }>(`/workspaces/${await ctx.workspaceId()}/query/tables`);
      ctx.out.list(
        [
          { key: 'table', header: 'TABLE' },
          { key: 'row_count', header: 'ROWS' },
          { key: 'size', header: 'SIZE' },
          { key: 'column_count', header: 'COLUMNS' },
        ],
        list.map((entry) => ({
          ...entry,
          table: `${entry.schema_name}.${entry.name}`,
          size: ctx.out.mode === 'human' ? humanBytes(entry.size_bytes) : entry.size_bytes,
        })),
        list,
      );
    });

  tables
    .command('describe')
    .description('A table’s columns, key, size and snapshots')
    .argument('<table>', '<namespace>.<table>')
    .action(async (table, _options, command) => {
      const ctx = CommandContext.from(command.optsWithGlobals());
      const detail = await ctx.api.get<TableDetail>(`/workspaces/${await ctx.workspaceId()}/query/tables/${encodeURIComponent(table)}/metadata`);
      if (ctx.out.mode === 'json') return ctx.out.json(detail);
      if (ctx.out.mode === 'human') {
        ctx.out.write(
          `${detail.table}: ${detail.row_count} rows, ${humanBytes(detail.size_bytes)} in ${detail.file_count} files, key ${detail.primary_key?.join(', ') ?? '(none)'}`,
        );
        ctx.out.write(`snapshot ${detail.current_snapshot}, updated ${detail.updated_at}, time travel back to ${detail.earliest_snapshot_at}\n`);
      }
      ctx.out.list(
        [
          { key: 'name', header: 'COLUMN' },
          { key: 'type', header: 'TYPE' },
          { key: 'nullable', header: 'NULLABLE' },
        ],
        detail.columns,
      );
    });

  tables
    .command('history')
    .description('The snapshots that changed a table, newest first (read any of them with FOR SYSTEM_TIME AS OF)')
    .argument('<table>', '<namespace>.<table>')
    .option('--limit <n>', 'how many', '50')
    .option('--offset <n>', 'skip this many', '0')
    .action(async (table, options, command) => {
      const ctx = CommandContext.from(command.optsWithGlobals());
      const history = await ctx.api.get<
        { snapshot_id: number; committed_at: string; changes: string[]; message: string | null; records_written: number | null }[]
      >(`/workspaces/${await ctx.workspaceId()}/query/tables/${encodeURIComponent(table)}/history`, { limit: options.limit, offset: options.offset });
      ctx.out.list(
        [
          { key: 'snapshot_id', header: 'SNAPSHOT' },
          { key: 'committed_at', header: 'COMMITTED' },
          { key: 'changes', header: 'CHANGES' },
          { key: 'records_written', header: 'RECORDS' },
          { key: 'message', header: 'MESSAGE' },
        ],
        history.map((entry) => ({ ...entry, changes: entry.changes.join(', ') })),
        history,
      );
    });
}
