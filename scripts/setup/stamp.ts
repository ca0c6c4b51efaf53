import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// A stamp file records which version a step installed, so a second run can skip it.
const stampName = '.installed-version';

export function readStamp(dir: string): string | undefined {
  const path = join(dir, stampName);
  return existsSync(path) ? readFileSync(path, 'utf8').trim() : undefined;
}

export function writeStamp(dir: string, version: string): void {
  writeFileSync(join(dir, stampName), `${version}\n`);
}
