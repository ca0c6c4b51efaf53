import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Toolchain, ToolPaths } from '../toolchain';
import { runOrFail } from '../shell';
import { readStamp, writeStamp } from '../stamp';

/**
 * promtool, Prometheus' own checker, for the test that the alert rules in ops/ load into Prometheus
 * (`promtool check rules`) and fire when they should (`promtool test rules`). Built from the Go module
 * proxy like MinIO: Prometheus' module versions are v0.<major><minor>.<patch> (v0.316.0 is Prometheus 3.16.0).
 */
export function installPromtool(toolchain: Toolchain, paths: ToolPaths): void {
  const version = toolchain.promtool;
  const link = join(paths.binDir, 'promtool');
  if (readStamp(paths.promtoolDir) === version && existsSync(link)) return;

  console.log(`[setup] building promtool ${version} with go install (the first build takes several minutes)…`);
  rmSync(paths.promtoolDir, { recursive: true, force: true });
  mkdirSync(paths.promtoolDir, { recursive: true });
  runOrFail(
    ['go', 'install', `github.com/prometheus/prometheus/cmd/promtool@${version}`],
    `go install github.com/prometheus/prometheus/cmd/promtool@${version}`,
    {
      env: { GOBIN: paths.promtoolDir },
    },
  );
  mkdirSync(paths.binDir, { recursive: true });
  rmSync(link, { force: true });
  symlinkSync(join(paths.promtoolDir, 'promtool'), link);
  writeStamp(paths.promtoolDir, version);
}
