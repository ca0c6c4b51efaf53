import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Tools the set-up downloads or builds at a pinned version are kept once per user, like Go's and pip's own
 * caches: every clone after the first copies them instead of installing them again.
 */
export function userCacheDir(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'oxbow', 'tools');
}

/**
 * The files `produce` writes into a scratch folder, kept under `key` in the user's cache and copied into
 * `targetDir`. The cache entry is filled beside its final name and renamed, so a clone set up at the
 * same time never copies half of it.
 */
export function copyFromUserCache(key: string, files: string[], targetDir: string, produce: (scratchDir: string) => void): void {
  const entry = join(userCacheDir(), key);
  const complete = () => files.every((file) => existsSync(join(entry, file)));
  if (!complete()) {
    mkdirSync(userCacheDir(), { recursive: true });
    const scratch = mkdtempSync(`${entry}.partial-`);
    try {
      produce(scratch);
      // An entry left incomplete by an interrupted set-up goes; one another set-up finished meanwhile stays.
      if (!complete()) rmSync(entry, { recursive: true, force: true });
      try {
        renameSync(scratch, entry);
      } catch (error) {
        if (!complete()) throw error;
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  mkdirSync(targetDir, { recursive: true });
  for (const file of files) copyFileSync(join(entry, file), join(targetDir, file));
}
