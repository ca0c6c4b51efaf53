import type { Command } from '@commander-js/extra-typings';
import { CommandContext, type GlobalOptions } from '../context';

interface Dashboard {
  plan_tier: string;
  queries_used: number;
  queries_included: number;
  queries_remaining: number;
  overage_queries: number;
  storage_used_gb: number;
  storage_limit_gb: number;
  connectors_used: number;
  connectors_limit: number | null;
  estimated_cost_mtd: number;
  period_start: string;
  period_end: string;
}

export function registerUsage(program: Command<[], GlobalOptions>): void {
  program
    .command('usage')
    .description('The month so far: queries, storage and connectors against the plan, and the cost')
    .action(async (_options, command) => {
      const ctx = CommandContext.from(command.optsWithGlobals());
      const usage = await ctx.api.get<Dashboard>(`/workspaces/${await ctx.workspaceId()}/usage/dashboard`);
      ctx.out.record(
        [
          ['Plan', 'plan_tier', usage.plan_tier],
          ['Period', 'period', `${usage.period_start} – ${usage.period_end}`],
          ['Queries', 'queries_used', `${usage.queries_used} of ${usage.queries_included} (${usage.overage_queries} over)`],
          ['Storage', 'storage_used_gb', `${usage.storage_used_gb.toFixed(3)} of ${usage.storage_limit_gb} GB`],
          ['Connectors', 'connectors_used', `${usage.connectors_used} of ${usage.connectors_limit ?? 'unlimited'}`],
          ['Cost so far', 'estimated_cost_mtd', `€${usage.estimated_cost_mtd.toFixed(2)}`],
        ],
        usage,
      );
    });
}
