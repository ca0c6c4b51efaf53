import type { Logger } from '../logging/logger';
import type { CatalogStore } from './catalog-attachment';
import type { LakeConfig } from '../config';
import { AppError } from '../errors/app-error';
import { beforeDeadline } from '../util/deadline';
import { WorkspaceEngine } from './workspace-engine';
import { removeOrphanInstanceFolders } from './duckdb/instance-folders';
import { CatalogReaders } from './catalog-reader';
import { StatementScheduler, type SchedulerLimits } from './admission/statement-scheduler';
import { InstanceSlots } from './instance-slots';
import type { LiveSourceProvider } from './live/live-sources';

export interface EngineManagerOptions {
  catalog: CatalogStore;
  lake: LakeConfig;
  extensionDir: string;
  /** Instances open at once, at most (DUCKDB_MAX_INSTANCES within the memory budget). */
  maxInstances: number;
  /** An instance unused for this long closes. */
  idleCloseMs: number;
  memoryLimit: string;
  threads: number;
  threadNice: number;
  readConnections: number;
  /** Connections to a Postgres catalog each instance keeps between statements. */
  catalogConnections: number;
  tempRoot: string;
  profileRoot: string;
  /** Admission of tenants' statements across this process's workspace engines. */
  statements: SchedulerLimits;
  /** The workspaces' live connections, attached to their query (interactive) instances. */
  liveSources?: LiveSourceProvider;
  /** A write through one of the instances changed its workspace's catalog. */
  onCatalogWritten?: (workspaceId: string) => void;
  logger: Logger;
}

/**
 * How often an instance in use asks whether its workspace's live connections changed, as a safety
 * net: a change made by any process reaches every process at once as a notice (refreshLiveSources),
 * and this also reopens an instance whose source could not be reached and may be back.
 */
const liveCheckIntervalMs = 10_000;

/** Work that brings no deadline of its own (a push, a listing, durable work) waits this long for an instance. */
const defaultSlotWaitMs = 30_000;

/**
 * Which instance of a workspace runs a statement. Within one instance an operator that does not yield
 * (a cross join of two large series) can hold every DuckDB thread until its statement ends, so the
 * durable work of a workspace (jobs, maintenance) runs on an instance apart from its requests.
 */
export type EngineLane = 'interactive' | 'background';

interface Entry {
  engine: Promise<WorkspaceEngine>;
  /** The engine, once open. */
  ready: WorkspaceEngine | undefined;
  leases: number;
  lastUsed: number;
  /** The live connections the instance was opened with (interactive instances only). */
  liveFingerprint?: string;
  liveCheckedAt: number;
  /** Replaced by a fresh instance on next use; closed once its current users are done. */
  stale: boolean;
  retired: boolean;
}

/**
 * The open workspace engines: created on first use, kept while used, closed after `idleCloseMs`
 * unused, and never more than `maxInstances` at once: work that needs another instance waits for one
 * (the least recently used idle one is closed to make room) within its own deadline, and opening
 * counts against that deadline too. An engine in use (leased) is never closed under its user.
 */
export class EngineManager {
  private readonly entries = new Map<string, Entry>();
  private readonly catalogReaders: CatalogReaders;
  private readonly slots: InstanceSlots;
  /** The instances holding a slot (opening, open or closing), by lane: what the metrics count. */
  private readonly holders = new Map<Entry, EngineLane>();
  private readonly sweeper: Timer;
  readonly scheduler: StatementScheduler;
  private closingCount = 0;
  private closing = false;

  constructor(private readonly options: EngineManagerOptions) {
    removeOrphanInstanceFolders(options.profileRoot);
    removeOrphanInstanceFolders(options.tempRoot);
    this.catalogReaders = new CatalogReaders(options.catalog);
    this.scheduler = new StatementScheduler(options.statements);
    this.slots = new InstanceSlots(options.maxInstances, (wanted) => this.makeRoom(wanted));
    this.sweeper = setInterval(() => this.closeIdle(), Math.max(1_000, Math.min(30_000, options.idleCloseMs / 4)));
    this.sweeper.unref();
  }

  /** `deadline` (a `performance.now()` time): waiting for an instance and opening it end there with QUERY_TIMEOUT. */
  async with<T>(workspaceId: string, work: (engine: WorkspaceEngine) => Promise<T>, lane: EngineLane = 'interactive', deadline?: number): Promise<T> {
    if (this.closing) throw new Error('the engine manager is shutting down');
    const entry = this.entryFor(workspaceId, lane);
    if (lane === 'interactive') this.checkLiveSources(workspaceId, entry);
    entry.leases += 1;
    entry.lastUsed = performance.now();
    try {
      // The open (or the wait for a slot) goes on for the next caller when this one's deadline passes.
      return await work(entry.ready ?? (await beforeDeadline(entry.engine, deadline, instanceWaitTimedOut)));
    } finally {
      entry.leases -= 1;
      entry.lastUsed = performance.now();
      if (entry.leases === 0) this.slots.idle();
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

  /** Another process changed the workspace's tables: the names kept here are read again on next use. */
  tablesChanged(workspaceId: string): void {
    for (const lane of ['interactive', 'background'] as const) this.entries.get(entryKey(workspaceId, lane))?.ready?.tableNames.invalidate();
  }

  /** Changes may have been missed: every instance reads its table names and checks its live connections again. */
  resync(): void {
    for (const entry of this.entries.values()) {
      entry.ready?.tableNames.invalidate();
      entry.liveCheckedAt = Number.NEGATIVE_INFINITY;
    }
  }

  /** Closes a workspace's engines (its workspace was deleted, or moved to another process), waiting for current users to finish. */
  async release(workspaceId: string): Promise<void> {
    await Promise.all((['interactive', 'background'] as const).map((lane) => this.releaseEntry(entryKey(workspaceId, lane), 'released')));
  }

  /**
   * Drops a workspace's instance of one lane after DuckDB failed internally: the next statement opens a
   * fresh one; the old one closes once its running statements have ended.
   */
  discard(workspaceId: string, lane: EngineLane): void {
    this.options.logger.error('workspace engine discarded after an internal DuckDB error', { workspace_id: workspaceId, lane });
    void this.releaseEntry(entryKey(workspaceId, lane), 'discarded');
  }

  get openCount(): number {
    return this.entries.size;
  }

  /** Instances by lane, for the metrics: those opening, open or closing (each holds its memory until closed). */
  openByLane(): Record<EngineLane, number> {
    const counts: Record<EngineLane, number> = { interactive: 0, background: 0 };
    for (const lane of this.holders.values()) counts[lane] += 1;
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
    clearInterval(this.sweeper);
    await Promise.all([...this.entries.keys()].map((key) => this.releaseEntry(key, 'shutdown')));
    await this.catalogReaders.close();
  }

  private async releaseEntry(key: string, reason: string): Promise<void> {
    const entry = this.entries.get(key);
    if (!entry) return;
    await this.retire(key, entry, reason);
  }

  /** Takes the entry out of use and closes its engine once nobody uses it any more; then its slot is free. */
  private async retire(key: string, entry: Entry, reason: string): Promise<void> {
    if (this.entries.get(key) === entry) this.entries.delete(key);
    if (entry.retired) return;
    entry.retired = true;
    this.closingCount += 1;
    try {
      while (entry.leases > 0) await Bun.sleep(20);
      const engine = await entry.engine.catch(() => undefined);
      if (!engine) return;
      await engine.close();
      this.holders.delete(entry);
      this.slots.give();
      this.options.logger.info('workspace engine closed', { workspace_id: engine.workspaceId, lane: laneOf(key), reason });
    } finally {
      this.closingCount -= 1;
    }
  }

  private entryFor(workspaceId: string, lane: EngineLane): Entry {
    const key = entryKey(workspaceId, lane);
    const existing = this.entries.get(key);
    if (existing && !existing.stale) return existing;
    if (existing) void this.retire(key, existing, 'live connections changed');
    const startedAt = performance.now();
    const entry: Entry = {
      engine: this.slots.take(startedAt + defaultSlotWaitMs, () => engineBusy(this.slots.capacity)).then(() => this.openHolding(entry, workspaceId, lane)),
      ready: undefined,
      leases: 0,
      lastUsed: startedAt,
      liveCheckedAt: startedAt,
      stale: false,
      retired: false,
    };
    void entry.engine.then(
      (engine) => {
        entry.ready = engine;
        this.options.logger.info('workspace engine opened', { workspace_id: workspaceId, lane, duration_ms: Math.round(performance.now() - startedAt) });
      },
      () => {},
    );
    // A failed open is not cached: the next call tries again.
    entry.engine.catch((error: unknown) => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
      this.options.logger.error('could not open a workspace engine', { workspace_id: workspaceId, lane, error });
    });
    this.entries.set(key, entry);
    return entry;
  }

  /** Opens the entry's instance on the slot it was given; a failed open gives the slot back. */
  private async openHolding(entry: Entry, workspaceId: string, lane: EngineLane): Promise<WorkspaceEngine> {
    this.holders.set(entry, lane);
    try {
      // A slot given while the process shuts down opens nothing that would outlive it.
      if (this.closing) throw new Error('the engine manager is shutting down');
      const { engine, liveFingerprint } = await this.open(workspaceId, lane);
      entry.liveFingerprint = liveFingerprint;
      return engine;
    } catch (error) {
      this.holders.delete(entry);
      this.slots.give();
      throw error;
    }
  }

  private async open(workspaceId: string, lane: EngineLane): Promise<{ engine: WorkspaceEngine; liveFingerprint?: string }> {
    const { catalog, lake, statements: _limits, liveSources, onCatalogWritten, maxInstances: _max, idleCloseMs: _idle, ...instance } = this.options;
    const live = lane === 'interactive' && liveSources ? await liveSources.sourcesOf(workspaceId) : undefined;
    const engine = await WorkspaceEngine.open({
      ...instance,
      live: live?.sources,
      catalogReaders: this.catalogReaders,
      scheduler: this.scheduler,
      location: { workspaceId, catalog, lake },
      onCatalogWritten: onCatalogWritten && (() => onCatalogWritten(workspaceId)),
      trackProgress: lane === 'background',
    });
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

  /** Closes idle instances, least recently used first, for the work waiting for a slot (those already closing count). */
  private makeRoom(wanted: number): void {
    const needed = wanted - this.closingCount;
    if (needed <= 0) return;
    const idle = [...this.entries.entries()].filter(([, entry]) => entry.leases === 0 && entry.ready).sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    for (const [key, entry] of idle.slice(0, needed)) void this.retire(key, entry, 'room for another workspace');
  }

  private closeIdle(): void {
    const before = performance.now() - this.options.idleCloseMs;
    for (const [key, entry] of this.entries) {
      if (entry.leases === 0 && entry.ready && entry.lastUsed < before) void this.retire(key, entry, 'idle');
    }
  }
}

function entryKey(workspaceId: string, lane: EngineLane): string {
  return `${lane}:${workspaceId}`;
}

function laneOf(key: string): EngineLane {
  return key.startsWith('background:') ? 'background' : 'interactive';
}

function instanceWaitTimedOut(): AppError {
  return new AppError('QUERY_TIMEOUT', 'The query reached its time limit while its workspace engine was being opened', {
    hint: 'This process had as many workspace engines open as it may; retry, or run long queries as jobs.',
    advice: 'run-as-job',
  });
}

function engineBusy(capacity: number): AppError {
  return new AppError('ENGINE_BUSY', `All ${capacity} workspace engines of this process stayed in use`, {
    hint: 'Retry in a moment.',
    headers: { 'retry-after': '1' },
  });
}
