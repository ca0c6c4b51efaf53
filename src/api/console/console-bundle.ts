import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What the set-up's build of web/ wrote beside its files (scripts/web/build-console.ts). */
export interface ConsoleManifest {
  /** The entry module, loaded by the page. */
  entry: string;
  /** Style sheets the page links. */
  styles: string[];
  /** Every file of the build by name: its media type, and whether a gzip copy (`<name>.gz`) is beside it. */
  files: Record<string, { type: string; gzip: boolean }>;
}

export const manifestName = 'manifest.json';

/**
 * The console's build folder, read lazily: the manifest again whenever the set-up rebuilt it (its
 * modification time moved), a file only when it is listed there, so no path reaches past the build.
 */
export class ConsoleBundle {
  private cached: { mtimeMs: number; manifest: ConsoleManifest } | undefined;

  constructor(readonly dir: string) {}

  manifest(): ConsoleManifest | undefined {
    const path = join(this.dir, manifestName);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return undefined;
    if (this.cached?.mtimeMs !== stat.mtimeMs) this.cached = { mtimeMs: stat.mtimeMs, manifest: JSON.parse(readFileSync(path, 'utf8')) as ConsoleManifest };
    return this.cached.manifest;
  }

  /** A file of the build, gzipped when the client takes it and the build made a copy. */
  file(name: string, acceptsGzip: boolean): { path: string; type: string; gzip: boolean } | undefined {
    const entry = this.manifest()?.files[name];
    if (!entry || !Object.hasOwn(this.manifest()!.files, name)) return undefined;
    const gzip = acceptsGzip && entry.gzip && existsSync(join(this.dir, `${name}.gz`));
    return { path: join(this.dir, gzip ? `${name}.gz` : name), type: entry.type, gzip };
  }
}
