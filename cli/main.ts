#!/usr/bin/env bun
// `oxbow`: the command line of Oxbow (docs/cli.md). Compiled to one binary by the set-up
// (.tools/bin/oxbow); also runs as `bun cli/main.ts` and `npx oxbow`.
import { CommanderError } from '@commander-js/extra-typings';
import { CliError, exitCodes } from './src/exit-codes';
import { Output } from './src/output/output';
import { buildProgram } from './src/program';

process.on('SIGINT', () => {
  process.stderr.write('\ninterrupted\n');
  process.exit(exitCodes.interrupted);
});

const argv = process.argv;
const json = argv.includes('--json');
try {
  await buildProgram().parseAsync(argv);
  process.exitCode = exitCodes.ok;
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander has printed its message (or the help); help and --version are no failure.
    // Commander's own exit code is 0 for help asked for (`--help`, `help`, `--version`), 1 otherwise.
    process.exitCode = error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
  } else {
    const failure = error instanceof CliError ? error : new CliError(`Unexpected: ${(error as Error)?.stack ?? String(error)}`, exitCodes.failure);
    new Output(json ? 'json' : 'plain').error(failure);
    process.exitCode = failure.exitCode;
  }
}
