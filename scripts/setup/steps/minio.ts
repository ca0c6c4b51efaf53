import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Toolchain, ToolPaths } from '../toolchain';
import { runOrFail } from '../shell';
import { readStamp, writeStamp } from '../stamp';

/** MinIO, the real S3 server the tests run against, built from the Go module proxy (Go's caches make rebuilds quick). */
export function installMinio(toolchain: Toolchain, paths: ToolPaths): void {
  const version = toolchain.minio;
  const link = join(paths.binDir, 'minio');
  if (readStamp(paths.minioDir) === version && existsSync(link)) return;

  console.log(`[setup] building MinIO ${version} with go install (the first build takes a few minutes)…`);
  rmSync(paths.minioDir, { recursive: true, force: true });
  mkdirSync(paths.minioDir, { recursive: true });
  runOrFail(['go', 'install', `github.com/minio/minio@${version}`], `go install github.com/minio/minio@${version}`, {
    env: { GOBIN: paths.minioDir },
  });
  mkdirSync(paths.binDir, { recursive: true });
  rmSync(link, { force: true });
  symlinkSync(join(paths.minioDir, 'minio'), link);
  writeStamp(paths.minioDir, version);
}
