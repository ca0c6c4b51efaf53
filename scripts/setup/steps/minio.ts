import type { Toolchain, ToolPaths } from '../toolchain';
import { installGoTool } from './go-tool';

/** MinIO, the real S3 server the tests run against, built from the Go module proxy. */
export function installMinio(toolchain: Toolchain, paths: ToolPaths): void {
  installGoTool(
    {
      binary: 'minio',
      module: 'github.com/minio/minio',
      version: toolchain.minio,
      dir: paths.minioDir,
      building: `building MinIO ${toolchain.minio} with go install (the first build takes a few minutes)…`,
    },
    paths,
  );
}
