import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * DuckDB writes the profile of every query to a file that the query path reads right back. On a
 * memory-backed folder (`/dev/shm`) that costs a fraction of what a disk write does (0.3 ms against
 * 0.9 ms a query on the development machine), so the folders live apart from the spill directory.
 * Each engine gets its own, named after the process so that a killed process's folders can be told apart.
 */
export function createProfileFolder(root: string, workspaceId: string): string {
  mkdirSync(root, { recursive: true });
  return mkdtempSync(join(root, `${process.pid}-${workspaceId}-`));
}

/** Removes the folders of processes that no longer run (killed before they could clean up). */
export function removeOrphanProfileFolders(root: string): void {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(name.split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && !isRunning(pid)) rmSync(join(root, name), { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
