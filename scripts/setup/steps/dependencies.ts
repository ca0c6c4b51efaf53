import { projectRoot, type Toolchain } from '../toolchain';
import { runOrFail, SetupError } from '../shell';

/** Installs the project's packages exactly as bun.lock records them (Bun's cache makes a re-run instant). */
export async function installDependencies(toolchain: Toolchain): Promise<void> {
  const manifest = (await Bun.file(`${projectRoot}/package.json`).json()) as { dependencies: Record<string, string> };
  const duckdbPackage = manifest.dependencies['@duckdb/node-api'] ?? '';
  // The extensions below only load into the exact DuckDB release they were built for.
  if (!duckdbPackage.startsWith(`${toolchain.duckdb}-`)) {
    throw new SetupError(
      `@duckdb/node-api ${duckdbPackage} does not match the pinned DuckDB ${toolchain.duckdb} of toolchain.json.`,
      'pin a @duckdb/node-api release built on that DuckDB version in package.json, then run bun install',
    );
  }
  runOrFail([process.execPath, 'install', '--frozen-lockfile'], 'bun install --frozen-lockfile', { cwd: projectRoot });
}
