import type { Toolchain, ToolPaths } from '../toolchain';
import { installGoTool } from './go-tool';

/**
 * promtool, Prometheus' own checker, for the test that the alert rules in ops/ load into Prometheus
 * (`promtool check rules`) and fire when they should (`promtool test rules`). Built from the Go module
 * proxy like MinIO: Prometheus' module versions are v0.<major><minor>.<patch> (v0.316.0 is Prometheus 3.16.0).
 */
export function installPromtool(toolchain: Toolchain, paths: ToolPaths): void {
  installGoTool(
    {
      binary: 'promtool',
      module: 'github.com/prometheus/prometheus/cmd/promtool',
      version: toolchain.promtool,
      dir: paths.promtoolDir,
      building: `building promtool ${toolchain.promtool} with go install (the first build takes several minutes)…`,
    },
    paths,
  );
}
