/** Thrown when a setup step cannot finish; carries what failed and how to retry. */
export class SetupError extends Error {
  constructor(
    message: string,
    readonly retry: string,
  ) {
    super(message);
  }
}

export interface CommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export function runCommand(argv: string[], options: { env?: Record<string, string | undefined>; cwd?: string } = {}): CommandResult {
  const result = Bun.spawnSync(argv, {
    env: { ...process.env, ...options.env },
    cwd: options.cwd,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  return { exitCode: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

/** Runs a command and turns a non-zero exit into a SetupError that quotes the command's own output. */
export function runOrFail(argv: string[], what: string, options: { env?: Record<string, string | undefined>; cwd?: string } = {}): string {
  const result = runCommand(argv, options);
  if (result.exitCode !== 0) {
    const output = (result.stderr || result.stdout).trim().split('\n').slice(-15).join('\n');
    throw new SetupError(`${what} failed (exit ${result.exitCode}):\n${output}`, argv.join(' '));
  }
  return result.stdout;
}

export function which(binary: string): string | undefined {
  return Bun.which(binary) ?? undefined;
}
