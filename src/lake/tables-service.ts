import { AppError } from '../errors/app-error';
import type { LakeStorage } from '../lake-storage/lake-storage';
import type { Store } from '../store/store';
import { workspaceDataPrefix } from '../engine/catalog-attachment';
import type { EngineLane, EngineManager } from '../engine/engine-manager';
import { sqlIdentifier } from '../engine/sql-literals';
import { retriedWhileCatalogLocked } from '../engine/catalog-retry';
import { qualifiedName, type TableName } from '../engine/write/table-name';
import { catalogColumns, type CatalogColumn } from '../engine/tables/catalog-columns';
import { currentSnapshotId, lakeStorageBytes, tableStats, type TableStats } from '../engine/tables/lake-metadata';
import { TableRegistry } from '../engine/tables/table-registry';
import { tableHistory, type TableSnapshot } from '../engine/tables/table-history';
import { isStagingTableName } from '../engine/sync/staging';

export interface TableListing {
  name: string;
  schema_name: string;
  row_count: number;
  size_bytes: number;
  column_count: number;
}

export interface TableDetail extends TableListing {
  table: string;
  columns: CatalogColumn[];
  file_count: number;
  primary_key: string[] | null;
  created_at: string;
  updated_at: string;
  current_snapshot: number;
  earliest_snapshot_at: string;
}

/** The lake tables of a workspace: listing, detail and removal (catalog entry and files). */
export class TablesService {
  constructor(
    private readonly engines: EngineManager,
    private readonly store: Store,
    private readonly lake: LakeStorage,
  ) {}

  async list(workspaceId: string): Promise<TableListing[]> {
    const stats = await this.engines.with(workspaceId, (engine) => engine.read((connection) => tableStats(connection, engine.metadataSchema)));
    // A sync's staging table becomes the target table when its full refresh ends; until then it is no table of the user's.
    return stats.filter((entry) => !isStagingTableName(entry.name)).map(listing);
  }

  async detail(workspaceId: string, name: TableName): Promise<TableDetail> {
    const { stats, columns, snapshot } = await this.engines.with(workspaceId, (engine) =>
      engine.read(async (connection) => ({
        stats: (await tableStats(connection, engine.metadataSchema, name))[0],
        columns: await catalogColumns(connection, name),
        snapshot: await currentSnapshotId(connection, engine.metadataSchema),
      })),
    );
    if (!stats || !columns) throw notFound(name);
    return {
      ...listing(stats),
      table: qualifiedName(name),
      columns,
      file_count: stats.file_count,
      primary_key: (await new TableRegistry(this.store).primaryKey(workspaceId, name)) ?? null,
      created_at: stats.created_at,
      updated_at: stats.updated_at,
      current_snapshot: snapshot,
      earliest_snapshot_at: stats.earliest_snapshot_at,
    };
  }

  /** The snapshots that changed a table, newest first (see tableHistory). */
  async history(workspaceId: string, name: TableName, page: { limit: number; offset: number }): Promise<{ total: number; snapshots: TableSnapshot[] }> {
    const history = await this.engines.with(workspaceId, (engine) => engine.read((connection) => tableHistory(connection, engine.metadataSchema, name, page)));
    if (!history) throw notFound(name);
    return history;
  }

  /** The bytes of every file the workspace's lake holds, from the catalog; on the lane of the work that asks. */
  storageBytes(workspaceId: string, lane: EngineLane = 'interactive'): Promise<number> {
    return this.engines.with(workspaceId, (engine) => lakeStorageBytes(engine.catalog), lane);
  }

  /** Drops the table from the catalog and deletes its files, including those kept for time travel. */
  async drop(workspaceId: string, name: TableName): Promise<void> {
    await this.engines.with(workspaceId, (engine) =>
      engine.writeTable(qualifiedName(name), async (connection) => {
        const [stats] = await tableStats(connection, engine.metadataSchema, name);
        if (!stats) throw notFound(name);
        await retriedWhileCatalogLocked(() => connection.run(`DROP TABLE ${sqlIdentifier(name.schema)}.${sqlIdentifier(name.table)}`), dropAttempts);
        await this.lake.deletePrefix(`${workspaceDataPrefix(workspaceId)}${stats.table_path}`);
        await new TableRegistry(this.store).dropped(workspaceId, name);
      }),
    );
  }
}

function listing(stats: TableStats): TableListing {
  return { name: stats.name, schema_name: stats.schema_name, row_count: stats.row_count, size_bytes: stats.size_bytes, column_count: stats.column_count };
}

/**
 * Attempts at a drop. A drop is one commit, and a maintenance run (scheduled, or started right after
 * the writes that left the table many small files) may commit to the same table meanwhile, on the
 * workspace's background instance: the drop is tried again from a fresh transaction, as writes are,
 * instead of failing.
 */
const dropAttempts = 6;

function notFound(name: TableName): AppError {
  return new AppError('NOT_FOUND', `Table ${qualifiedName(name)} does not exist`);
}
