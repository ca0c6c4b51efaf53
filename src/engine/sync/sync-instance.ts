import { rmSync } from 'node:fs';
import type { DuckDBInstance } from '@duckdb/node-api';
import type { LakeConfig } from '../../config';
import { attachCatalog } from '../attach-catalog';
import { lakeMetadataSchema, type CatalogStore } from '../catalog-attachment';
import { lakeAlias } from '../catalog-names';
import { createDuckDBInstance } from '../duckdb/create-instance';
import { EngineConnection } from '../duckdb/engine-connection';
import { createInstanceFolder } from '../duckdb/instance-folders';
import { sqlString } from '../sql-literals';
import { SyncLake, type SyncLakeDeps } from './sync-lake';

export interface SyncInstanceSettings {
  extensionDir: string;
  memoryLimit: string;
  threads: number;
  threadNice: number;
  /** Parent of each instance's private spill folder. */
  tempRoot: string;
  catalog: CatalogStore;
  lake: LakeConfig;
}

/**
 * Short-lived DuckDB instances for reading connections' sources, apart from every tenant query
 * instance: they keep external access (a source is a network address) and are never locked, so no
 * tenant SQL ever runs on one. Only SQL the service writes itself runs here, with every name and
 * value the source or the user gave quoted. A sync's instance also attaches the workspace's lake
 * catalog as `lake`, writes the batches there and is closed when its stream ends.
 */
export class SyncInstances {
  constructor(
    private readonly settings: SyncInstanceSettings,
    /** What a sync's writes to the lake need besides the instance (see SyncLake). */
    private readonly lakeDeps: SyncLakeDeps,
  ) {}

  /** An instance with the source's extensions and, for a sync, the workspace's lake attached as `lake`. */
  async open(options: { sourceExtensions: readonly string[]; workspaceId?: string }): Promise<SyncInstance> {
    const { settings } = this;
    const { workspaceId } = options;
    const tempDir = createInstanceFolder(settings.tempRoot, `sync-${workspaceId ?? 'source'}`);
    const lakeExtensions = workspaceId
      ? ['ducklake', settings.catalog.kind === 'postgres' ? 'postgres_scanner' : 'sqlite_scanner', ...(settings.lake.kind === 's3' ? ['httpfs'] : [])]
      : [];
    let instance: DuckDBInstance | undefined;
    let connection: EngineConnection | undefined;
    try {
      instance = await createDuckDBInstance({
        extensionDir: settings.extensionDir,
        memoryLimit: settings.memoryLimit,
        threads: settings.threads,
        threadNice: settings.threadNice,
        tempDirectory: tempDir,
        extensions: [...new Set([...lakeExtensions, ...options.sourceExtensions])],
      });
      connection = new EngineConnection(await instance.connect());
      // DuckDB tracks a statement's progress only with its progress bar on (not printed): a long batch tells how far it is.
      await connection.configure('SET enable_progress_bar = true; SET enable_progress_bar_print = false');
      if (workspaceId) await attachCatalog(connection, { workspaceId, catalog: settings.catalog, lake: settings.lake }, lakeAlias);
      const lake = workspaceId ? { workspaceId, metadataSchema: lakeMetadataSchema(settings.catalog, workspaceId), deps: this.lakeDeps } : undefined;
      return new SyncInstance(instance, connection, tempDir, lake);
    } catch (error) {
      connection?.closeSync();
      instance?.closeSync();
      rmSync(tempDir, { recursive: true, force: true });
      throw error;
    }
  }
}

export class SyncInstance {
  private closed = false;
  private lakeLoading: Promise<void> | undefined;

  /** The workspace's lake as the sync writes it (its one way to); absent on an instance that only reads a source. */
  readonly lake: SyncLake | undefined;

  constructor(
    private readonly instance: DuckDBInstance,
    /** The one connection everything of the sync runs on, in order. */
    readonly connection: EngineConnection,
    /** The instance's private folder (spill files). */
    readonly tempDir: string,
    lake: { workspaceId: string; metadataSchema: string; deps: SyncLakeDeps } | undefined,
  ) {
    this.lake = lake && new SyncLake(this, lake.workspaceId, lake.metadataSchema, lake.deps);
  }

  /**
   * DuckLake reads a catalog's schemas, tables and columns the first time a transaction uses it: 30 to
   * 40 ms on a new instance, which a sync would wait for at its first write. This first look, on a
   * connection of its own, has that happen while the sync asks its source what to read; later
   * transactions find the catalog loaded. Started once; it never fails (the sync's own use of the lake
   * reports what is wrong). Nothing else may use the lake until it has settled: two connections opening
   * an embedded catalog at once can wait on each other for a second.
   */
  loadLakeCatalog(): Promise<void> {
    this.lakeLoading ??= (async () => {
      let connection: EngineConnection | undefined;
      try {
        connection = new EngineConnection(await this.instance.connect());
        await connection.read(`SELECT count(*) FROM system.main.duckdb_schemas() WHERE database_name = ${sqlString(lakeAlias)}`);
      } catch {
        // Reported by the sync's own use of the lake.
      } finally {
        connection?.closeSync();
      }
    })();
    return this.lakeLoading;
  }

  /** Waits for an abandoned statement to stop, then closes the instance and removes its folder. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.lakeLoading;
    await this.connection.idle();
    this.connection.closeSync();
    this.instance.closeSync();
    rmSync(this.tempDir, { recursive: true, force: true });
  }
}
