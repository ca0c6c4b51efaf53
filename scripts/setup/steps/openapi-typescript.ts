import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { projectRoot, type ToolPaths } from '../toolchain';
import { runOrFail } from '../shell';
import { readStamp, writeStamp } from '../stamp';

const sourceDir = join(projectRoot, 'scripts', 'setup', 'openapi-typescript');

/**
 * openapi-typescript, for the test that generates a client from the OpenAPI document: in a folder of
 * its own with TypeScript 5, since it drives TypeScript's compiler API, which the project's TypeScript 7
 * does not have. Pinned by its own package.json and bun.lock (Bun's cache makes a re-run instant).
 */
export function installOpenapiTypescript(bun: string, paths: ToolPaths): void {
  const files = ['package.json', 'bun.lock'];
  const version = createHash('sha256')
    .update(files.map((file) => readFileSync(join(sourceDir, file), 'utf8')).join('\n'))
    .digest('hex')
    .slice(0, 16);
  const cli = join(paths.openapiTypescriptDir, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
  if (readStamp(paths.openapiTypescriptDir) === version && existsSync(cli)) return;

  console.log('[setup] installing openapi-typescript…');
  mkdirSync(paths.openapiTypescriptDir, { recursive: true });
  for (const file of files) cpSync(join(sourceDir, file), join(paths.openapiTypescriptDir, file));
  runOrFail([bun, 'install', '--frozen-lockfile'], 'bun install (openapi-typescript)', { cwd: paths.openapiTypescriptDir });
  writeStamp(paths.openapiTypescriptDir, version);
}
