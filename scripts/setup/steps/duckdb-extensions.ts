import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { duckdbPlatform, type Toolchain, type ToolPaths } from '../toolchain';
import { runOrFail, SetupError } from '../shell';
import { copyFromUserCache } from '../user-cache';

/**
 * DuckDB cannot download extensions at run time here, so the official signed binaries come from the
 * `duckdb-extension-<name>` wheels and are laid out the way DuckDB's extension_directory expects (kept in
 * the user's cache, so later clones copy them without asking pip).
 */
export function installDuckdbExtensions(toolchain: Toolchain, paths: ToolPaths): void {
  const version = toolchain.duckdb;
  const targetDir = join(paths.duckdbExtensionDir, `v${version}`, duckdbPlatform());
  const fileName = (name: string) => `${name}.duckdb_extension`;
  const fileOf = (name: string) => join(targetDir, fileName(name));
  const missing = toolchain.duckdbExtensions.filter((name) => !existsSync(fileOf(name)));
  if (missing.length === 0) return;

  copyFromUserCache(`duckdb-extensions-v${version}-${duckdbPlatform()}-${missing.join('-')}`, missing.map(fileName), targetDir, (scratch) => {
    console.log(`[setup] installing DuckDB ${version} extensions: ${missing.join(', ')}…`);
    const wheels = missing.map((name) => `duckdb-extension-${name.replaceAll('_', '-')}==${version}`);
    runOrFail(
      ['python3', '-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--upgrade', '--target', paths.duckdbWheelsDir, ...wheels],
      `pip install of ${wheels.join(' ')}`,
    );
    for (const name of missing) {
      const source = join(paths.duckdbWheelsDir, `duckdb_extension_${name}`, 'extensions', `v${version}`, fileName(name));
      if (!existsSync(source)) throw new SetupError(`the wheel for ${name} holds no ${source}`, 'rm -rf .tools/duckdb-wheels && npm start');
      copyFileSync(source, join(scratch, fileName(name)));
    }
  });
}
