import { existsSync } from 'node:fs';
import type { Toolchain } from '../toolchain';
import { runCommand, runOrFail, SetupError } from '../shell';

/** Where Debian's package puts the browser the browser tests drive (through playwright-core). */
export const chromiumPath = '/usr/bin/chromium';

/** The version of Debian's `chromium` package installed, or undefined when none is. */
function installedChromium(): string | undefined {
  const query = runCommand(['dpkg-query', '-W', '-f=${Status} ${Version}', 'chromium']);
  const match = /^install ok installed (\S+)$/.exec(query.stdout.trim());
  return match?.[1];
}

/**
 * Debian's Chromium for the browser tests: Playwright's own browser builds come from a download host
 * the set-up cannot reach, and a browser from the distribution gets its security updates with it. The
 * pinned version is the one apt installs; a newer one from a security update is taken as it is (apt
 * keeps only the newest build of a package), and the set-up says so.
 */
export function installChromium(toolchain: Toolchain): void {
  const pinned = toolchain.chromium;
  const installed = installedChromium();
  if (installed && existsSync(chromiumPath)) {
    if (installed !== pinned) console.log(`[setup] Debian's chromium is ${installed} (toolchain.json pins ${pinned})`);
    return;
  }

  console.log(`[setup] installing Chromium ${pinned} from Debian…`);
  const isRoot = process.getuid?.() === 0;
  const apt = (args: string[]) => (isRoot ? ['apt-get', ...args] : ['sudo', '-n', 'apt-get', ...args]);
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  const exact = [`chromium=${pinned}`];
  const install = (packages: string[]) => runCommand(apt(['install', '-y', '--no-install-recommends', ...packages]), { env }).exitCode === 0;
  if (!install(exact)) {
    runOrFail(apt(['update']), 'apt-get update', { env });
    // A security update replaces the pinned build in Debian's archive: then the current one is taken.
    if (!install(exact)) runOrFail(apt(['install', '-y', '--no-install-recommends', 'chromium']), 'apt-get install chromium', { env });
  }
  if (!existsSync(chromiumPath)) throw new SetupError(`chromium was installed but ${chromiumPath} is missing`, 'apt-get install --reinstall chromium');
}
