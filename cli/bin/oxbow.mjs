#!/usr/bin/env node
// `npx oxbow` from the repository: runs the binary the set-up compiled (.tools/bin/oxbow), or the
// sources with the set-up's Bun when it has not been compiled yet.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const binary = join(root, '.tools', 'bin', 'oxbow');
const bun = join(root, '.tools', 'bin', 'bun');
const [command, args] = existsSync(binary) ? [binary, []] : [bun, [join(root, 'cli', 'main.ts')]];
if (!existsSync(command)) {
  console.error('oxbow is not set up yet: run `npm start` (or `node scripts/bootstrap.mjs exec true`) once.');
  process.exit(1);
}
const run = spawnSync(command, [...args, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
