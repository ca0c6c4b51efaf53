import type { Logger } from '../logging/logger';
import type { CatalogStore } from './catalog-attachment';
import type { LakeConfig } from '../config';
import { WorkspaceEngine } from './workspace-engine';
import { removeOrphanProfileFolders } from './duckdb/profile-folders';
import { CatalogReaders } from './catalog-reader';
import { StatementScheduler, type SchedulerLimits } from './admission/statement-scheduler';

export interface EngineManagerOptions {
  catalog: CatalogStore;
  lake: LakeConfig;
  extensionDir: string;
  maxInstances: number;
  memoryLimit: string;
  threads: number;
  threadNice: number;
  readConnections: number;
  tempRoot: string;
  profileRoot: string;
  /** Admission of tenants' statements across this process's workspace engines. */
  statements: SchedulerLimits;
  logger: Logger;
}

interface Entry {
  engine: Promise<WorkspaceEngine>;
  leases: number;
  lastUsed: number;
}

/**
 * The open workspace engines: created on first use, kept while used, and closed least-recently-used
 * first once more than `maxInstances` are open. An engine in use (leased) is never closed under its user.
 */
export class EngineManager {
  private readonly entries = new Map<string, Entry>();
  private readonly catalogReaders: CatalogReaders;
  readonly scheduler: StatementScheduler;
  private closing = false;

  constructor(private readonly options: EngineManagerOptions) {
    removeOrphanProfileFolders(options.profileRoot);
    this.catalogReaders = new CatalogReaders(options.catalog);
    this.scheduler = new StatementScheduler(options.statements);
  }

  async with<T>(workspaceId: string, work: (engine: WorkspaceEngine) => Promise<T>): Promise<T> {
    if (this.closing) throw new Error('the engine manager is shutting down');
    const entry = this.entryFor(workspaceId);
    entry.leases += 1;
    entry.lastUsed = performance.now();
    try {
      return await work(await entry.engine);
    } finally {
      entry.leases -= 1;
      entry.lastUsed = performance.now();
      this.evictIdle();
    }
  }

  /** Closes a workspace's engine (its workspace is being deleted), waiting for current users to finish. */
  async release(workspaceId: string): Promise<void> {
    const entry = this.entries.get(workspaceId);
    if (!entry) return;
    this.entries.delete(workspaceId);
    while (entry.leases > 0) await Bun.sleep(20);
    await (await entry.engine.catch(() => undefined))?.close();
  }

  get openCount(): number {
    return this.entries.size;
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.entries.keys()].map((workspaceId) => this.release(workspaceId)));
    await this.catalogReaders.close();
  }

  private entryFor(workspaceId: string): Entry {
    const existing = this.entries.get(workspaceId);
    if (existing) return existing;
    const { catalog, lake, statements: _limits, ...instance } = this.options;
    const entry: Entry = {
      engine: WorkspaceEngine.open({ ...instance, catalogReaders: this.catalogReaders, scheduler: this.scheduler, location: { workspaceId, catalog, lake } }),
      leases: 0,
      lastUsed: performance.now(),
    };
    // A failed open is not cached: the next call tries again.
    entry.engine.catch((error) => {
      if (this.entries.get(workspaceId) === entry) this.entries.delete(workspaceId);
      this.options.logger.error('could not open a workspace engine', { workspace_id: workspaceId, error });
    });
    this.entries.set(workspaceId, entry);
    return entry;
  }

  private evictIdle(): void {
    if (this.entries.size <= this.options.maxInstances) return;
    const idle = [...this.entries.entries()].filter(([, entry]) => entry.leases === 0).sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    for (const [workspaceId] of idle.slice(0, this.entries.size - this.options.maxInstances)) {
      void this.release(workspaceId);
    }
  }
}
