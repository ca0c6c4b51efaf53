import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolPaths } from '../toolchain';
import { runOrFail } from '../shell';
import { readStamp, writeStamp } from '../stamp';
import { copyFromUserCache } from '../user-cache';

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
 * version and the Go release that built it: linking MinIO or promtool again takes tens of seconds even
 * with Go's own caches warm.
 */
export function installGoTool(tool: GoTool, paths: ToolPaths): void {
  const link = join(paths.binDir, tool.binary);
  if (readStamp(tool.dir) === tool.version && existsSync(link)) return;

  rmSync(tool.dir, { recursive: true, force: true });
  const goRelease = runOrFail(['go', 'env', 'GOVERSION'], 'go env GOVERSION').trim();
  copyFromUserCache(`go-${tool.module.replaceAll('/', '_')}@${tool.version}-${goRelease}`, [tool.binary], tool.dir, (scratch) => {
    console.log(`[setup] ${tool.building}`);
    runOrFail(['go', 'install', `${tool.module}@${tool.version}`], `go install ${tool.module}@${tool.version}`, { env: { GOBIN: scratch } });
  });
  mkdirSync(paths.binDir, { recursive: true });
  rmSync(link, { force: true });
  symlinkSync(join(tool.dir, tool.binary), link);
  writeStamp(tool.dir, tool.version);
}
