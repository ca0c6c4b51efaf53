import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { projectRoot, toolPaths, type ToolPaths } from '../toolchain';
import { readStamp, writeStamp } from '../stamp';
import { SetupError } from '../shell';

export const apiTypesPath = join(projectRoot, 'web', 'src', 'api', 'schema.d.ts');

/**
 * The web console: its API types generated from the service's own /openapi.json (by the
 * openapi-typescript of steps/openapi-typescript.ts), then the build of web/ the service serves
 * at `/`. Each part runs again only when its inputs changed: the document for the types; the
 * console's sources, the types and the lockfile for the build.
 */
export function buildWebConsole(paths: ToolPaths): void {
  // In a process of its own: the generation imports the service, whose packages the dependencies step
  // may have installed only moments ago, after this process's resolver had found no node_modules.
  const child = Bun.spawnSync([process.execPath, import.meta.path, paths.toolsDir], { cwd: projectRoot, stdout: 'inherit', stderr: 'inherit' });
  if (child.exitCode !== 0) throw new SetupError(`building the web console failed (exit ${child.exitCode})`, 'npm start');
}

async function buildHere(paths: ToolPaths): Promise<void> {
  const stampDir = join(paths.toolsDir, 'web-console');
  mkdirSync(stampDir, { recursive: true });
  const { serviceOpenapiDocument } = await import('../../web/openapi-document');
  const document = JSON.stringify(await serviceOpenapiDocument());
  const documentHash = Bun.hash(document).toString(16);
  const typesDir = join(stampDir, 'types');
  mkdirSync(typesDir, { recursive: true });
  if (readStamp(typesDir) !== documentHash || !existsSync(apiTypesPath)) {
    console.log('[setup] generating the console’s API types from /openapi.json…');
    const { apiTypes } = await import('../../web/api-types');
    writeFileSync(apiTypesPath, await apiTypes(JSON.parse(document)));
    writeStamp(typesDir, documentHash);
  }

  const { buildConsole, consoleDistDir, webDir } = await import('../../web/build-console');
  const inputs = [webDir, join(projectRoot, 'bun.lock'), join(projectRoot, 'scripts', 'web', 'build-console.ts')];
  const inputHash = hashFiles(inputs, [consoleDistDir, `${consoleDistDir}.next`]);
  const buildDir = join(stampDir, 'build');
  mkdirSync(buildDir, { recursive: true });
  if (readStamp(buildDir) === inputHash && existsSync(join(consoleDistDir, 'manifest.json'))) return;
  console.log('[setup] building the web console…');
  const build = await buildConsole();
  const entry = build.files[build.entry];
  console.log(`[setup] web console built: ${Object.keys(build.files).length} files, entry ${entry?.gzipBytes ?? 0} bytes gzipped`);
  writeStamp(buildDir, inputHash);
}

/** One hash over the paths and contents of every file under the inputs, skipping the build's own folders. */
function hashFiles(inputs: string[], skip: string[]): string {
  const hasher = new Bun.CryptoHasher('sha256');
  const visit = (path: string) => {
    if (skip.includes(path) || path.endsWith('node_modules')) return;
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) visit(join(path, name));
      return;
    }
    hasher.update(relative(projectRoot, path));
    hasher.update(readFileSync(path));
  };
  for (const input of inputs) visit(input);
  return hasher.digest('hex');
}

if (import.meta.main) await buildHere(toolPaths(process.argv[2]!));
