import { copyFileSync, renameSync, rmSync } from 'node:fs';

/** Moves a file, copying it when the two places are on different file systems. */
export function moveFile(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    copyFileSync(from, to);
    rmSync(from, { force: true });
  }
}
