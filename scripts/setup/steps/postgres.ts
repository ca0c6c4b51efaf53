import { existsSync } from 'node:fs';
import type { Toolchain } from '../toolchain';
import { runCommand, runOrFail, SetupError } from '../shell';

export function postgresBinDir(major: number): string {
  return `/usr/lib/postgresql/${major}/bin`;
}

/** The tests start their own throwaway cluster, so they need Debian's server binaries (never a running service). */
export function installPostgres(toolchain: Toolchain): void {
  const major = toolchain.postgresMajor;
  if (existsSync(`${postgresBinDir(major)}/postgres`)) return;

  console.log(`[setup] installing the PostgreSQL ${major} server from Debian…`);
  const isRoot = process.getuid?.() === 0;
  const apt = (args: string[]) => (isRoot ? ['apt-get', ...args] : ['sudo', '-n', 'apt-get', ...args]);
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  const packages = [`postgresql-${major}`, `postgresql-client-${major}`];
  if (runCommand(apt(['install', '-y', '--no-install-recommends', ...packages]), { env }).exitCode !== 0) {
    runOrFail(apt(['update']), 'apt-get update', { env });
    runOrFail(apt(['install', '-y', '--no-install-recommends', ...packages]), `apt-get install ${packages.join(' ')}`, { env });
  }
  if (!existsSync(`${postgresBinDir(major)}/postgres`)) {
    throw new SetupError(
      `PostgreSQL ${major} was installed but ${postgresBinDir(major)}/postgres is missing`,
      `apt-get install --reinstall ${packages.join(' ')}`,
    );
  }
}
