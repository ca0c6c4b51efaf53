import type { Logger } from '../logging/logger';
import type { CatalogStore } from './catalog-attachment';
import type { LakeConfig } from '../config';
import { WorkspaceEngine } from './workspace-engine';
import { removeOrphanInstanceFolders } from './duckdb/instance-folders';
import { CatalogReaders } from './catalog-reader';
import { StatementScheduler, type SchedulerLimits } from './admission/statement-scheduler';
import type { LiveSourceProvider } from './live/live-sources';

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
  /** The workspaces' live connections, attached to their query (interactive) instances. */
  liveSources?: LiveSourceProvider;
  logger: Logger;
}

/**
 * How often an instance in use asks whether its workspace's live connections changed (another process
 * may have changed them; this one reopens at once): the instance is reopened when they did, and when
 * a source it could not reach may be back.
 */
const liveCheckIntervalMs = 10_000;

/**
 * Which instance of a workspace runs a statement. Within one instance an operator that does not yield
 * (a cross join of two large series) can hold every DuckDB thread until its statement ends, so the
 * durable work of a workspace (jobs, maintenance) runs on an instance apart from its requests.
 */
export type EngineLane = 'interactive' | 'background';

interface Entry {
  engine: Promise<WorkspaceEngine>;
  leases: number;
  lastUsed: number;
  /** The live connections the instance was opened with (interactive instances only). */
  liveFingerprint?: string;
  liveCheckedAt: number;
  /** Replaced by a fresh instance on next use; closed once its current users are done. */
  stale: boolean;
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
    removeOrphanInstanceFolders(options.profileRoot);
    removeOrphanInstanceFolders(options.tempRoot);
    this.catalogReaders = new CatalogReaders(options.catalog);
    this.scheduler = new StatementScheduler(options.statements);
  }

  async with<T>(workspaceId: string, work: (engine: WorkspaceEngine) => Promise<T>, lane: EngineLane = 'interactive'): Promise<T> {
    if (this.closing) throw new Error('the engine manager is shutting down');
    const entry = this.entryFor(workspaceId, lane);
    if (lane === 'interactive') this.checkLiveSources(workspaceId, entry);
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

  /**
   * The workspace's live connections changed: its query instance is reopened on next use (queries
   * running on the old one finish there), attaching the sources as they are now.
   */
  refreshLiveSources(workspaceId: string): void {
    const entry = this.entries.get(entryKey(workspaceId, 'interactive'));
    if (entry) entry.stale = true;
  }

  /** Closes a workspace's engines (its workspace is being deleted), waiting for current users to finish. */
  async release(workspaceId: string): Promise<void> {
    await Promise.all((['interactive', 'background'] as const).map((lane) => this.releaseEntry(entryKey(workspaceId, lane))));
  }

  /**
   * Drops a workspace's instance of one lane after DuckDB failed internally: the next statement opens a
   * fresh one; the old one closes once its running statements have ended.
   */
  discard(workspaceId: string, lane: EngineLane): void {
    this.options.logger.error('workspace engine discarded after an internal DuckDB error', { workspace_id: workspaceId, lane });
    void this.releaseEntry(entryKey(workspaceId, lane));
  }

  get openCount(): number {
    return this.entries.size;
  }

  /** Instances open, by lane, for the metrics. */
  openByLane(): Record<EngineLane, number> {
    const counts: Record<EngineLane, number> = { interactive: 0, background: 0 };
    for (const key of this.entries.keys()) counts[key.startsWith('background:') ? 'background' : 'interactive'] += 1;
    return counts;
  }

  /**
   * Memory the open instances hold, by lane, for the metrics. An instance whose read connections are
   * all taken longer than `waitMs` is left out rather than waited for (the scrape must not hang).
   */
  async memoryByLane(waitMs: number): Promise<Record<EngineLane, number>> {
    const totals: Record<EngineLane, number> = { interactive: 0, background: 0 };
    await Promise.all(
      [...this.entries].map(async ([key, entry]) => {
        const engine = await entry.engine.catch(() => undefined);
        if (!engine) return;
        const bytes = await Promise.race([engine.memoryBytes().catch(() => 0), Bun.sleep(waitMs).then(() => 0)]);
        totals[key.startsWith('background:') ? 'background' : 'interactive'] += bytes;
      }),
    );
    return totals;
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.entries.keys()].map((key) => this.releaseEntry(key)));
    await this.catalogReaders.close();
  }

  private async releaseEntry(key: string): Promise<void> {
    const entry = this.entries.get(key);
    if (!entry) return;
    await this.retire(key, entry);
  }

  /** Takes the entry out of use and closes its engine once nobody uses it any more. */
  private async retire(key: string, entry: Entry): Promise<void> {
    if (this.entries.get(key) === entry) this.entries.delete(key);
    while (entry.leases > 0) await Bun.sleep(20);
    await (await entry.engine.catch(() => undefined))?.close();
  }

  private entryFor(workspaceId: string, lane: EngineLane): Entry {
    const key = entryKey(workspaceId, lane);
    const existing = this.entries.get(key);
    if (existing && !existing.stale) return existing;
    if (existing) void this.retire(key, existing);
    const opening = this.open(workspaceId, lane);
    const entry: Entry = { engine: opening.then(({ engine }) => engine), leases: 0, lastUsed: performance.now(), liveCheckedAt: performance.now(), stale: false };
    void opening.then(({ liveFingerprint }) => (entry.liveFingerprint = liveFingerprint)).catch(() => {});
    // A failed open is not cached: the next call tries again.
    entry.engine.catch((error) => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
      this.options.logger.error('could not open a workspace engine', { workspace_id: workspaceId, lane, error });
    });
    this.entries.set(key, entry);
    return entry;
  }

  private async open(workspaceId: string, lane: EngineLane): Promise<{ engine: WorkspaceEngine; liveFingerprint?: string }> {
    const { catalog, lake, statements: _limits, liveSources, ...instance } = this.options;
    const live = lane === 'interactive' && liveSources ? await liveSources.sourcesOf(workspaceId) : undefined;
    const engine = await WorkspaceEngine.open({ ...instance, live: live?.sources, catalogReaders: this.catalogReaders, scheduler: this.scheduler, location: { workspaceId, catalog, lake } });
    return { engine, liveFingerprint: live?.fingerprint };
  }

  /** Now and then (never on the query's own time), whether the live connections changed or an unreachable source may be back. */
  private checkLiveSources(workspaceId: string, entry: Entry): void {
    const provider = this.options.liveSources;
    const now = performance.now();
    if (!provider || now - entry.liveCheckedAt < liveCheckIntervalMs) return;
    entry.liveCheckedAt = now;
    void (async () => {
      const engine = await entry.engine;
      const { fingerprint } = await provider.sourcesOf(workspaceId);
      if (fingerprint !== entry.liveFingerprint || engine.live.unavailable.size > 0) entry.stale = true;
    })().catch((error: unknown) => this.options.logger.warn('could not check the live connections', { workspace_id: workspaceId, error }));
  }

  private evictIdle(): void {
    if (this.entries.size <= this.options.maxInstances) return;
    const idle = [...this.entries.entries()].filter(([, entry]) => entry.leases === 0).sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    for (const [key] of idle.slice(0, this.entries.size - this.options.maxInstances)) {
      void this.releaseEntry(key);
    }
  }
}

function entryKey(workspaceId: string, lane: EngineLane): string {
  return `${lane}:${workspaceId}`;
}
