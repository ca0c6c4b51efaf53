import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { projectRoot } from '../setup/toolchain';

export const webDir = join(projectRoot, 'web');
export const consoleDistDir = join(webDir, 'dist');
/** Where the console's pages load the build from (src/api/console). */
const publicPath = '/console/assets/';

const mediaTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
};

/** Files smaller than this are sent as they are: gzip would save less than a round of headers. */
const gzipFrom = 1024;

export interface ConsoleBuild {
  entry: string;
  styles: string[];
  files: Record<string, { type: string; gzip: boolean; bytes: number; gzipBytes: number }>;
}

/**
 * Builds web/ with Bun's bundler: one entry module, a chunk per lazily loaded room and library
 * (code splitting keeps the editor and the charts out of the first load), minified, names hashed by
 * content, a gzip copy beside each text file, and a manifest the service reads. The build is written
 * beside the old one and swapped in whole.
 */
export async function buildConsole(outDir = consoleDistDir): Promise<ConsoleBuild> {
  const staging = `${outDir}.next`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const result = await Bun.build({
    entrypoints: [join(webDir, 'src', 'main.tsx')],
    outdir: staging,
    target: 'browser',
    format: 'esm',
    splitting: true,
    sourcemap: 'none',
    minify: true,
    publicPath,
    naming: { entry: '[name]-[hash].[ext]', chunk: 'chunk-[hash].[ext]', asset: '[name]-[hash].[ext]' },
    define: { 'process.env.NODE_ENV': '"production"' },
    tsconfig: join(webDir, 'tsconfig.json'),
  });
  if (!result.success) throw new Error(`the console build failed:\n${result.logs.map(String).join('\n')}`);

  const build: ConsoleBuild = { entry: '', styles: [], files: {} };
  for (const output of result.outputs) {
    const name = basename(output.path);
    const extension = name.slice(name.lastIndexOf('.'));
    if (output.kind === 'entry-point') build.entry = name;
    if (extension === '.css') build.styles.push(name);
    const bytes = new Uint8Array(await output.arrayBuffer());
    const gzip = extension !== '.png' && extension !== '.woff2' && bytes.length >= gzipFrom;
    const gzipped = gzip ? Bun.gzipSync(bytes, { level: 9 }) : undefined;
    if (gzipped) writeFileSync(join(staging, `${name}.gz`), gzipped);
    build.files[name] = { type: mediaTypes[extension] ?? 'application/octet-stream', gzip, bytes: bytes.length, gzipBytes: gzipped?.length ?? bytes.length };
  }
  if (!build.entry) throw new Error('the console build has no entry module');
  writeFileSync(join(staging, 'manifest.json'), `${JSON.stringify(build, null, 2)}\n`);

  const previous = `${outDir}.previous`;
  rmSync(previous, { recursive: true, force: true });
  if (readdirSync(join(outDir, '..')).includes(basename(outDir))) renameSync(outDir, previous);
  renameSync(staging, outDir);
  rmSync(previous, { recursive: true, force: true });
  return build;
}
