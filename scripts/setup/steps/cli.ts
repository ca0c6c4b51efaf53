import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { projectRoot, type ToolPaths } from '../toolchain';
import { runOrFail } from '../shell';
import { readStamp, writeStamp } from '../stamp';

/** Everything the binary is built from: the CLI's sources, the lockfile and the Bun that compiles it. */
function sourceDigest(): string {
  const hash = new Bun.CryptoHasher('sha256');
  hash.update(Bun.version);
  hash.update(readFileSync(join(projectRoot, 'bun.lock')));
  const walk = (dir: string): string[] =>
    readdirSync(dir)
      .sort()
      .flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? walk(path) : [path];
      });
  for (const file of walk(join(projectRoot, 'cli'))) {
    hash.update(relative(projectRoot, file));
    hash.update(readFileSync(file));
  }
  return hash.digest('hex');
}

/**
 * The `oxbow` command line, compiled by `bun build --compile` into one binary (`.tools/bin/oxbow`)
 * that needs no Bun or node_modules beside it. Rebuilt only when its sources change (2 to 3 s).
 */
export function buildCli(paths: ToolPaths): void {
  const stampDir = join(paths.toolsDir, 'cli');
  const digest = sourceDigest();
  const binary = join(paths.binDir, 'oxbow');
  let built = false;
  try {
    built = readStamp(stampDir) === digest && statSync(binary).isFile();
  } catch {
    built = false;
  }
  if (built) return;
  console.log('[setup] compiling the oxbow command line…');
  mkdirSync(stampDir, { recursive: true });
  mkdirSync(paths.binDir, { recursive: true });
  runOrFail([process.execPath, 'build', '--compile', join(projectRoot, 'cli', 'main.ts'), '--outfile', binary], 'bun build --compile cli/main.ts', {
    cwd: projectRoot,
  });
  writeStamp(stampDir, digest);
}
