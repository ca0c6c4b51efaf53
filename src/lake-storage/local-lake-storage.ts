import { mkdir, readdir, rm } from 'node:fs/promises';
import { accessSync, constants, mkdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { assertSafePrefix, type LakeStorage } from './lake-storage';

export class LocalLakeStorage implements LakeStorage {
  readonly rootUrl: string;

  constructor(private readonly root: string) {
    this.rootUrl = pathToFileURL(root).href.replace(/\/?$/, '/');
  }

  /** The directory behind a prefix, which DuckDB is given as a plain path. */
  pathOf(prefix: string): string {
    assertSafePrefix(prefix);
    return join(this.root, prefix);
  }

  /**
   * Two system calls on the event loop's own thread: the asynchronous file API queues on the runtime's
   * shared work pool, and the health check must answer whatever else is waiting there.
   */
  async ping(): Promise<void> {
    mkdirSync(this.root, { recursive: true });
    accessSync(this.root, constants.R_OK | constants.W_OK);
  }

  async list(prefix: string): Promise<string[]> {
    const base = this.pathOf(prefix);
    const entries = await readdir(base, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    return entries.filter((entry) => entry.isFile()).map((entry) => relative(this.root, join(entry.parentPath, entry.name)));
  }

  async deletePrefix(prefix: string): Promise<number> {
    const count = (await this.list(prefix)).length;
    await rm(this.pathOf(prefix), { recursive: true, force: true });
    return count;
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  locationOf(key: string): string {
    return this.pathOf(key);
  }

  async prepareFor(key: string): Promise<void> {
    await mkdir(dirname(this.pathOf(key)), { recursive: true });
  }

  close(): void {}
}
