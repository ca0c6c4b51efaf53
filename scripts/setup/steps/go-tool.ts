import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ToolPaths } from '../toolchain';
import { runOrFail } from '../shell';
import { readStamp, writeStamp } from '../stamp';

/** A command-line tool built from the Go module proxy at a pinned version. */
export interface GoTool {
  /** The binary's name, as `go install` writes it and as `.tools/bin` links it. */
  binary: string;
  /** The package to install, without its version: `github.com/minio/minio`. */
  module: string;
  version: string;
  /** Where the tool lives in the tools folder. */
  dir: string;
  /** Said while it builds: a first build of a large module takes minutes. */
  building: string;
}

/**
 * Installs a Go tool into the tools folder. A build is kept in the user's cache, keyed by the module, its
 * version and the Go release that built it, so every clone after the first copies the binary instead of
 * linking it again (tens of seconds for MinIO or promtool even with Go's own caches warm).
 */
export function installGoTool(tool: GoTool, paths: ToolPaths): void {
  const link = join(paths.binDir, tool.binary);
  if (readStamp(tool.dir) === tool.version && existsSync(link)) return;

  rmSync(tool.dir, { recursive: true, force: true });
  mkdirSync(tool.dir, { recursive: true });
  const cached = join(buildCacheDir(), `${tool.module.replaceAll('/', '_')}@${tool.version}-${goRelease()}`, tool.binary);
  if (!existsSync(cached)) {
    console.log(`[setup] ${tool.building}`);
    const built = join(tool.dir, 'build');
    runOrFail(['go', 'install', `${tool.module}@${tool.version}`], `go install ${tool.module}@${tool.version}`, { env: { GOBIN: built } });
    mkdirSync(join(cached, '..'), { recursive: true });
    // Written beside its final name and renamed, so a clone set up at the same time never copies half a binary.
    const partial = `${cached}.${process.pid}`;
    copyFileSync(join(built, tool.binary), partial);
    renameSync(partial, cached);
    rmSync(built, { recursive: true, force: true });
  }
  copyFileSync(cached, join(tool.dir, tool.binary));
  mkdirSync(paths.binDir, { recursive: true });
  rmSync(link, { force: true });
  symlinkSync(join(tool.dir, tool.binary), link);
  writeStamp(tool.dir, tool.version);
}

function buildCacheDir(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'oxbow', 'go-tools');
}

function goRelease(): string {
  return runOrFail(['go', 'env', 'GOVERSION'], 'go env GOVERSION').trim();
}
