import { Command } from '@commander-js/extra-typings';
import type { GlobalOptions } from './context';
import { registerAuth } from './commands/auth';
import { registerProfiles } from './commands/profiles';
import { registerWorkspaces } from './commands/workspaces';
import { registerQuery } from './commands/query';
import { registerJobs } from './commands/jobs';
import { registerTables } from './commands/tables';
import { registerPush } from './commands/push';
import { registerConnections } from './commands/connections';
import { registerTransforms } from './commands/transforms';
import { registerUsage } from './commands/usage';

export const cliVersion = '1.0.0';

/** The whole command tree; `main.ts` runs it. */
export function buildProgram(): Command<[], GlobalOptions> {
  const program = new Command()
    .name('oxbow')
    .description('The command line of Oxbow: log in, run SQL, load files, follow jobs, syncs and transforms.')
    .version(cliVersion)
    .option('--profile <name>', 'the profile to use (default: OXBOW_PROFILE, else the current one)')
    .option('-w, --workspace <workspace>', 'the workspace, by slug or id (default: the profile’s, else your first)')
    .option('--json', 'machine-readable output: JSON on standard output, errors as JSON on standard error')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride() as unknown as Command<[], GlobalOptions>;
  registerAuth(program);
  registerProfiles(program);
  registerWorkspaces(program);
  registerQuery(program);
  registerJobs(program);
  registerTables(program);
  registerPush(program);
  registerConnections(program);
  registerTransforms(program);
  registerUsage(program);
  for (const command of program.commands) inheritExitOverride(command);
  return program;
}

/** Every command throws its usage errors to main.ts (exit status 2) instead of exiting on its own. */
function inheritExitOverride(command: { exitOverride(): unknown; readonly commands: readonly unknown[] }): void {
  command.exitOverride();
  for (const child of command.commands) inheritExitOverride(child as typeof command);
}
