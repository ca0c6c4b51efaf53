import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBInstance } from '@duckdb/node-api';
import { KeyedMutex } from '../util/keyed-mutex';
import { AsyncMutex } from '../util/async-mutex';
import type { Admission, StatementScheduler } from './admission/statement-scheduler';
import { attachCatalog } from './attach-catalog';
import { lakeMetadataSchema, sqliteCatalogFile, workspaceDataPath, type CatalogLocation } from './catalog-attachment';
import { CatalogChangeWatch } from './catalog-change-watch';
import type { CatalogReader, CatalogReaders } from './catalog-reader';
import { ConnectionPool } from './connection-pool';
import { createDuckDBInstance, threadsOf } from './duckdb/create-instance';
import { InstanceCpuTime } from './duckdb/instance-cpu-time';
import { EngineConnection } from './duckdb/engine-connection';
import { createInstanceFolder } from './duckdb/instance-folders';
import { sqlString } from './sql-literals';
import { TableNameCache } from './sql/known-tables';
import { attachLiveSources, noLiveTables, type LiveSource, type LiveTables } from './live/live-sources';
import type { Logger } from '../logging/logger';

import { lakeAlias, readDefaultCatalog, useLake } from './catalog-names';
import { DialectMacros } from './dialect-macros';

/** Writes to different tables of a workspace run side by side up to this many; one table's writes take turns. */
const writeConnections = 2;
/** Reads of an embedded catalog's metadata, which the query path makes before most queries. */
const catalogConnections = 2;

export interface WorkspaceEngineOptions {
  location: CatalogLocation;
  extensionDir: string;
  memoryLimit: string;
  threads: number;
  /** Niceness of DuckDB's worker threads (see duckdb/engine-threads.ts). */
  threadNice: number;
  readConnections: number;
  /** Parent of the instance's private spill directory. */
  tempRoot: string;
  /** Parent of the instance's query-profile folder (memory-backed where the host has one). */
  profileRoot: string;
  catalogReaders: CatalogReaders;
  /** Admission of tenants' statements in this process, shared by every workspace engine. */
  scheduler: StatementScheduler;
  /** Sources of live connections, attached read-only before the instance is locked. */
  live?: LiveSource[];
  /** Where a live source that cannot be attached is reported. */
  logger?: Logger;
  /** Connections to a Postgres catalog the instance keeps between statements. */
  catalogConnections?: number;
  /** Told after every write through the instance (other processes' caches of the catalog follow). */
  onCatalogWritten?: () => void;
  /** Have DuckDB track each read's progress (the background lane: jobs report it while they run). */
  trackProgress?: boolean;
}

/**
 * One workspace's DuckDB instance: its DuckLake catalog attached as `lake`, then locked down so that
 * nothing run on it can reach another workspace's files, the host, the network or the settings.
 * Reads share a pool of connections; writes to one table take turns.
 */
export class WorkspaceEngine {
  private readonly tableLocks = new KeyedMutex();
  private readonly maintenanceTurn = new AsyncMutex();
  /** The workspace's table names between queries; every write through this engine clears it. */
  readonly tableNames = new TableNameCache();
  /** An embedded catalog's files, watched so that a query can tell it unchanged without reading it. */
  readonly catalogChanges: CatalogChangeWatch | undefined;
  /** The Postgres dialect's macros, in the read catalog, which the write connections search after the lake. */
  readonly macros = new DialectMacros(`${readDefaultCatalog}.main`);
  private closed = false;

  private constructor(
    readonly location: CatalogLocation,
    /** Direct reads of the catalog's metadata tables, for the query path's statistics. */
    readonly catalog: CatalogReader,
    private readonly instance: DuckDBInstance,
    private readonly reads: ConnectionPool<EngineConnection>,
    private readonly writes: ConnectionPool<EngineConnection>,
    private readonly catalogReads: ConnectionPool<EngineConnection>,
    private readonly scheduler: StatementScheduler,
    private readonly tempDir: string,
    private readonly profileDir: string,
    private readonly profiles: Map<EngineConnection, string>,
    /** The tables of the workspace's live connections, by `<connection>.<table>`. */
    readonly live: LiveTables,
    private readonly onCatalogWritten: (() => void) | undefined,
  ) {
    this.catalogChanges =
      location.catalog.kind === 'sqlite' ? new CatalogChangeWatch(sqliteCatalogFile(location.catalog.dir, location.workspaceId)) : undefined;
  }

  /** Where DuckDB writes the profile of each query run on this (read) connection. */
  profilePath(connection: EngineConnection): string | undefined {
    return this.profiles.get(connection);
  }

  static async open(options: WorkspaceEngineOptions): Promise<WorkspaceEngine> {
    const { workspaceId } = options.location;
    // Each instance spills to its own folder: DuckDB adds the temp directory to the allowed ones.
    const tempDir = createInstanceFolder(options.tempRoot, workspaceId);
    const profileDir = createInstanceFolder(options.profileRoot, workspaceId);
    const instance = await createDuckDBInstance({
      extensionDir: options.extensionDir,
      memoryLimit: options.memoryLimit,
      threads: options.threads,
      threadNice: options.threadNice,
      tempDirectory: tempDir,
      extensions: extensionsFor(options.location, (options.live?.length ?? 0) > 0),
    });
    const connections: EngineConnection[] = [];
    const profiles = new Map<EngineConnection, string>();
    const cpu = InstanceCpuTime.of(threadsOf(instance));
    let live = noLiveTables;
    try {
      for (let i = 0; i < options.readConnections + writeConnections + catalogConnections; i++)
        connections.push(new EngineConnection(await instance.connect(), cpu));
      await attachCatalog(connections[0]!, options.location, lakeAlias, options.catalogConnections);
      // Attached while the instance can still reach the network; locked below like everything else.
      if (options.live?.length) live = await attachLiveSources(connections[0]!, options.live, options.logger);
      // Session settings first: once the configuration is locked nothing can set them any more.
      for (const [index, connection] of connections.entries()) {
        if (index < writeConnections) {
          await connection.configure(useLake.join('; '));
        } else if (index >= writeConnections + options.readConnections) {
          // Catalog reads name their tables in full.
          await connection.configure(`USE ${readDefaultCatalog}`);
        } else {
          // Reads name the lake in every table reference (see planTableScans): with the lake as the
          // default catalog, each function and type a query names would start a DuckLake transaction.
          const profile = join(profileDir, `profile-${index}.json`);
          await connection.configure(`USE ${readDefaultCatalog}; ${profilingSettings(profile)}${options.trackProgress ? `; ${progressSettings}` : ''}`);
          profiles.set(connection, profile);
          // Profiling times every operator on every chunk (about 5 % of a query); where the
          // instance's CPU time is counted from its threads, a query that needs no profile for its
          // scans runs on a twin without one.
          if (cpu) {
            const twin = new EngineConnection(await instance.connect(), cpu);
            await twin.configure(`USE ${readDefaultCatalog}`);
            connection.pairWith(twin);
          }
        }
      }
      await connections[0]!.configure(lockDownSettings([workspaceDataPath(options.location), `${tempDir}/`, `${profileDir}/`]));
    } catch (error) {
      for (const connection of connections) connection.closeSync();
      instance.closeSync();
      rmSync(profileDir, { recursive: true, force: true });
      rmSync(tempDir, { recursive: true, force: true });
      throw error;
    }
    const writers = new ConnectionPool(connections.slice(0, writeConnections));
    const readers = new ConnectionPool(connections.slice(writeConnections, writeConnections + options.readConnections));
    const catalogReads = new ConnectionPool(connections.slice(writeConnections + options.readConnections));
    return new WorkspaceEngine(
      options.location,
      options.catalogReaders.open(workspaceId, catalogReads),
      instance,
      readers,
      writers,
      catalogReads,
      options.scheduler,
      tempDir,
      profileDir,
      profiles,
      live,
      options.onCatalogWritten,
    );
  }

  /** The instance's private folder, which its locked-down SQL may read: where pushes stage their records. */
  get stagingDir(): string {
    return this.tempDir;
  }

  get workspaceId(): string {
    return this.location.workspaceId;
  }

  /** Where DuckLake keeps this catalog's own tables, for the engine's internal metadata reads. */
  get metadataSchema(): string {
    return lakeMetadataSchema(this.location.catalog, this.workspaceId);
  }

  /**
   * Runs read work on a pooled connection. A tenant's statement comes with its admission: it waits
   * for its turn among the process's statements, and its slot is held until its connection is free.
   */
  async read<T>(work: (connection: EngineConnection) => Promise<T>, admission?: Admission): Promise<T> {
    this.assertOpen();
    const ticket = admission && (await this.scheduler.admit(this.workspaceId, admission));
    return this.reads.use(work, ticket && (() => ticket.release()));
  }

  /**
   * Runs write work on one table, after any earlier write to it has finished. Its statement slot is
   * taken once it holds one of the few write connections: writes waiting for a connection hold no slot
   * the workspace's queries could run in.
   */
  writeTable<T>(tableKey: string, work: (connection: EngineConnection) => Promise<T>, admission?: Admission): Promise<T> {
    this.assertOpen();
    return this.tableLocks.runExclusive(tableKey, () =>
      this.writeCatalog(async (connection) => {
        const ticket = admission && (await this.scheduler.admit(this.workspaceId, admission));
        try {
          return await work(connection);
        } finally {
          ticket?.release();
        }
      }),
    );
  }

  /**
   * Lake maintenance, one run at a time: the scheduled run and one that writes started would rewrite
   * the same files side by side, and the later of two conflicting commits fails its run.
   */
  maintain<T>(work: (connection: EngineConnection) => Promise<T>): Promise<T> {
    this.assertOpen();
    return this.maintenanceTurn.runExclusive(() => this.writeCatalog(work));
  }

  /** Catalog-wide work, on a write connection. */
  async writeCatalog<T>(work: (connection: EngineConnection) => Promise<T>, onReturned?: () => void): Promise<T> {
    this.assertOpen();
    try {
      return await this.writes.use(work, onReturned);
    } finally {
      this.tableNames.invalidate();
      this.onCatalogWritten?.();
    }
  }

  /** Memory DuckDB holds for this instance (its buffer manager's count, all tags), for the metrics. */
  async memoryBytes(): Promise<number> {
    const rows = await this.read((connection) => connection.read('SELECT coalesce(sum(memory_usage_bytes), 0)::BIGINT FROM duckdb_memory()'));
    return Number(rows.scalar() ?? 0);
  }

  get busy(): boolean {
    return this.reads.busy + this.writes.busy > 0;
  }

  /** Closes the instance once no statement runs on it any more (closing under one would wait or crash). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([this.reads.drained(), this.writes.drained(), this.catalogReads.drained()]);
    this.catalog.close();
    this.reads.closeAll();
    this.writes.closeAll();
    this.catalogReads.closeAll();
    this.instance.closeSync();
    rmSync(this.tempDir, { recursive: true, force: true });
    rmSync(this.profileDir, { recursive: true, force: true });
  }

  private assertOpen(): void {
    if (this.closed) throw new Error(`the engine of workspace ${this.workspaceId} is closed`);
  }
}

/** Only what the deployment reads and writes: each extension costs memory and time to load. */
function extensionsFor(location: CatalogLocation, liveSources: boolean): string[] {
  const catalog = location.catalog.kind === 'postgres' ? 'postgres_scanner' : 'sqlite_scanner';
  return [...new Set(['ducklake', catalog, ...(liveSources ? ['postgres_scanner'] : []), ...(location.lake.kind === 's3' ? ['httpfs'] : [])])];
}

/**
 * After these, the instance can reach only the workspace's data path and its own temp folder, and no
 * setting can be changed back by anything that runs on it.
 */
function lockDownSettings(allowedPaths: string[]): string {
  return [`SET allowed_directories = [${allowedPaths.map(sqlString).join(', ')}]`, 'SET enable_external_access = false', 'SET lock_configuration = true'].join(
    '; ',
  );
}

/**
 * DuckDB estimates a statement's progress only while its progress bar is on; it is never printed. A
 * statement is tracked once it has run a quarter of a second (the jobs' progress is read twice a second).
 */
const progressSettings = ['SET enable_progress_bar = true', 'SET enable_progress_bar_print = false', 'SET progress_bar_time = 250'].join('; ');

/**
 * Every query on a read connection leaves its profile (CPU time, files scanned) in a file of the
 * instance's own profile folder, which the query path reads for usage accounting. DuckDB writes it
 * only inside the allowed directories, so the folder is one of them; user SQL cannot read files.
 */
function profilingSettings(path: string): string {
  return [
    "PRAGMA enable_profiling = 'json'",
    // Jobs write their results with COPY, which the default coverage (SELECT only) would not profile.
    "SET profiling_coverage = 'ALL'",
    `SET profiling_output = ${sqlString(path)}`,
    `SET custom_profiling_settings = '{"CPU_TIME": "true", "EXTRA_INFO": "true"}'`,
  ].join('; ');
}
