import type { Command } from '@commander-js/extra-typings';
import { updateProfile } from '../config/settings';
import { CommandContext, type GlobalOptions, type Workspace } from '../context';
import { CliError, exitCodes } from '../exit-codes';

export function registerWorkspaces(program: Command<[], GlobalOptions>): void {
  const workspaces = program.command('workspaces').description('Your workspaces, and the one commands work in');

  workspaces
    .command('ls')
    .description('The workspaces you are a member of')
    .action(async (_options, command) => {
      const ctx = CommandContext.from(command.optsWithGlobals());
      const list = await ctx.api.get<Workspace[]>('/workspaces');
      const current = await ctx.workspaceId().catch(() => undefined);
      ctx.out.list(
        [
          { key: 'current', header: '' },
          { key: 'slug', header: 'SLUG' },
          { key: 'name', header: 'NAME' },
          { key: 'role', header: 'ROLE' },
          { key: 'plan', header: 'PLAN' },
          { key: 'id', header: 'ID' },
        ],
        list.map((workspace) => ({ ...workspace, current: workspace.id === current ? '*' : '' })),
        list,
      );
    });

  workspaces
    .command('use')
    .description('Work in this workspace from now on (saved in the profile)')
    .argument('<workspace>', 'slug or id')
    .action(async (named, _options, command) => {
      const ctx = CommandContext.from(command.optsWithGlobals());
      const list = await ctx.api.get<Workspace[]>('/workspaces');
      const found = list.find((workspace) => workspace.id === named || workspace.slug === named);
      if (!found) throw new CliError(`No workspace "${named}" among yours`, exitCodes.notFound, 'List them with `oxbow workspaces ls`.');
      updateProfile(ctx.settings, (profile) => ({ ...profile, workspace: found.id }));
      ctx.out.note(`Now working in ${found.slug} (${found.id})`);
      if (ctx.out.mode === 'json') ctx.out.json(found);
    });
}
