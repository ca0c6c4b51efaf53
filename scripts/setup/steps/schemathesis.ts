import { chmodSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Toolchain, ToolPaths } from '../toolchain';
import { runCommand, runOrFail, SetupError } from '../shell';
import { readStamp, writeStamp } from '../stamp';

const pipQuietly = ['--quiet', '--disable-pip-version-check'];

/**
 * schemathesis, the API fuzzer of `npm run fuzz`, from PyPI into a private virtual environment under
 * the tools folder (pip's cache keeps a second install quick). Where Python's venv module is missing
 * (Debian ships it separately), the package goes into a plain folder instead, behind a launcher.
 */
export function installSchemathesis(toolchain: Toolchain, paths: ToolPaths): void {
  const version = toolchain.schemathesis;
  const link = schemathesisBinary(paths);
  if (readStamp(paths.schemathesisDir) === version && existsSync(link)) return;

  console.log(`[setup] installing schemathesis ${version} from PyPI…`);
  rmSync(paths.schemathesisDir, { recursive: true, force: true });
  mkdirSync(paths.schemathesisDir, { recursive: true });
  mkdirSync(paths.binDir, { recursive: true });
  rmSync(link, { force: true });
  const venv = join(paths.schemathesisDir, 'venv');
  if (runCommand(['python3', '-m', 'venv', venv]).exitCode === 0) {
    runOrFail([join(venv, 'bin', 'python'), '-m', 'pip', 'install', ...pipQuietly, `schemathesis==${version}`], `pip install schemathesis==${version}`);
    symlinkSync(join(venv, 'bin', 'st'), link);
  } else {
    const target = join(paths.schemathesisDir, 'site');
    runOrFail(
      ['python3', '-m', 'pip', 'install', ...pipQuietly, '--target', target, `schemathesis==${version}`],
      `pip install --target of schemathesis==${version}`,
    );
    writeFileSync(
      link,
      `#!/bin/sh\nPYTHONPATH="${target}" exec python3 -c 'import sys; from schemathesis.cli import schemathesis; sys.exit(schemathesis())' "$@"\n`,
    );
    chmodSync(link, 0o755);
  }
  const reported = runOrFail([link, '--version'], 'st --version');
  if (!reported.includes(version))
    throw new SetupError(`schemathesis reports "${reported.trim()}", expected ${version}`, 'rm -rf .tools/schemathesis && npm run fuzz');
  writeStamp(paths.schemathesisDir, version);
}

export function schemathesisBinary(paths: ToolPaths): string {
  return join(paths.binDir, 'st');
}
