import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../../store/store';
import type { Clock } from '../../util/clock';
import { lakeAlias } from '../catalog-names';
import type { EngineConnection } from '../duckdb/engine-connection';
import { sqlIdentifier, sqlString } from '../sql-literals';
import { catalogColumns, type CatalogColumn } from '../tables/catalog-columns';
import { currentSnapshotId, lastCommittedSnapshotId } from '../tables/lake-metadata';
import { TableRegistry } from '../tables/table-registry';
import { deletedAtColumn } from '../write/apply-deletions';
import { findCommit, type CommitInfo } from '../write/committed-write';
import type { LakeWriter } from '../write/lake-writer';
import type { TableName } from '../write/table-name';
import { writeRelation, type RelationWrite, type SchemaChange } from './relation-write';
import { dropAbandonedStaging, stagingTableName, swapInStaging } from './staging';

export type { SchemaChange } from './relation-write';
export type { CommitInfo } from '../write/committed-write';

/** What a sync's lake writes need beyond its instance: records go through the lake writer, tables into the registry. */
export interface SyncLakeDeps {
  writer: LakeWriter;
  store: Store;
  clock: Clock;
}

/** The sync instance the workspace's lake is attached to, as `lake` (see SyncInstances). */
export interface LakeAttachedInstance {
  readonly connection: EngineConnection;
  /** The instance's private folder: a listing of keys is staged there. */
  readonly tempDir: string;
  loadLakeCatalog(): Promise<void>;
}

/** What every write of a sync says about itself. */
interface SyncWrite {
  table: TableName;
  /** The snapshot's commit message. */
  message: string;
  /** Recorded with the snapshot, with the rows it wrote and deleted: what findCommit finds when the sync resumes. */
  commitInfo: Record<string, unknown>;
  /** The table is a stream's own (not a staging table): the registry learns that it was created, with this key, or written. */
  register?: { key: string[] };
  signal?: AbortSignal;
}

/** A batch the source gave as a relation over the sync instance (a SELECT the service wrote). */
export interface RelationBatch extends Omit<SyncWrite, 'commitInfo'> {
  /** Absent: no row changed (deletions only). */
  select?: string;
  /** The batch replaces the table's rows of the same key; among its own duplicates the last by `latestFirst` wins. */
  upsert?: { key: string[]; latestFirst?: string[] };
  /** Rows deleted at the source: every row first (the source table was emptied), and those of the `deleted` relation's keys after. */
  deletions?: { all: boolean; deleted?: string; mark: boolean; key: string[] };
  /**
   * The batch is the table's whole new content (a full refresh read in one batch): the table is
   * created anew, and the staging tables abandoned by other jobs of the stream go in the same snapshot.
   * `jobId` is this sync's.
   */
  replace?: { jobId: string };
  /** A replacement's commit information may say how the new table differs from the old one. */
  commitInfo: Record<string, unknown> | ((changes: SchemaChange[]) => Record<string, unknown>);
}

/** A batch the source gave as records: types inferred, the schema evolved, on the workspace's background instance. */
export interface RecordsBatch extends SyncWrite {
  records: unknown[];
  /** Upserted on this key (the table keeps it). */
  primaryKey?: string[];
  /** Records deleted at the source, by key: their rows deleted, or marked with `_deleted_at` (`mark`), in the same snapshot. */
  deleted?: { records: { key: Record<string, unknown>; deletedAt: string }[]; mark: boolean };
}

export interface SyncWritten {
  rows: number;
  /** Rows deleted or marked because their records were deleted at the source. */
  deleted: number;
  schemaChanges: SchemaChange[];
}

/** Every key a source holds now: a relation over the sync instance, or records holding the key fields. */
export type ListedKeys = { relation: string } | { records: Record<string, unknown>[] };

/**
 * The workspace's lake as one sync writes it, on its sync instance: each batch exactly one snapshot
 * that carries the sync's commit information (findCommit finds the last one when the sync resumes), a
 * full refresh's staging table swapped in whole, the rows whose keys the source no longer lists
 * deleted or marked, and the table registry kept in step. Relations the source gave are written on the
 * sync instance itself; records go through the lake writer on the workspace's background instance.
 * Only SQL the service writes runs here, every name and value quoted: never a tenant's.
 */
export class SyncLake {
  constructor(
    private readonly instance: LakeAttachedInstance,
    private readonly workspaceId: string,
    /** Where DuckLake keeps the lake's own tables (commit information, snapshots). */
    private readonly metadataSchema: string,
    private readonly deps: SyncLakeDeps,
  ) {}

  /** Has the catalog loaded while the sync asks its source what to read (see SyncInstance.loadLakeCatalog); never rejects. */
  loadCatalog(): Promise<void> {
    return this.instance.loadLakeCatalog();
  }

  /** DuckDB's progress of the statement running now, 0 to 100 (-1 when unknown): how far a long batch got. */
  get progressPercentage(): number {
    return this.instance.connection.progressPercentage;
  }

  /** The staging table a full refresh of `target` fills in job `jobId`, beside it (see stagingTableName). */
  stagingTable(target: TableName, jobId: string): TableName {
    return { schema: target.schema, table: stagingTableName(jobId, target.table) };
  }

  /** The table's current columns in order, or undefined when it does not exist. */
  columns(table: TableName): Promise<CatalogColumn[] | undefined> {
    return catalogColumns(this.instance.connection, table);
  }

  /** The newest snapshot whose commit information holds these fields (and that `accept`s), see findCommit. */
  findCommit(match: Record<string, string | number>, accept?: (info: CommitInfo) => boolean): Promise<CommitInfo | undefined> {
    return findCommit(this.instance.connection, this.metadataSchema, match, accept);
  }

  /** The snapshot this sync's last write made; with none of its own (nothing new, or records written through the workspace's instance), the lake's current one. */
  async snapshotId(): Promise<number> {
    const { connection } = this.instance;
    return (await lastCommittedSnapshotId(connection)) ?? (await currentSnapshotId(connection, this.metadataSchema));
  }

  /** The rows the table holds; 0 when it does not exist. */
  async rowCount(table: TableName): Promise<number> {
    if (!(await this.columns(table))) return 0;
    const rows = await this.instance.connection.read(`SELECT count(*) FROM ${qualifiedSql(table)}`);
    return Number(rows.scalar() ?? 0);
  }

  /** Writes a relation batch as one snapshot (see writeRelation). */
  async writeRelation(batch: RelationBatch): Promise<SyncWritten> {
    const { replace } = batch;
    const write: RelationWrite = {
      table: batch.table,
      select: batch.select,
      upsert: batch.upsert,
      deletions: batch.deletions,
      replace: replace !== undefined,
      message: batch.message,
      commitInfo: batch.commitInfo,
      watch: { signal: batch.signal },
      // A replacement ends the stream's full refresh, as a swap does: what abandoned ones left goes with it.
      alsoInTransaction: replace
        ? (connection) => dropAbandonedStaging(connection, this.metadataSchema, batch.table.schema, batch.table.table, replace.jobId)
        : undefined,
    };
    const written = await writeRelation(this.instance.connection, write);
    await this.registered(batch, written.createdTable);
    return { rows: written.rowsWritten, deleted: written.rowsDeleted, schemaChanges: written.schemaChanges };
  }

  /** Writes a records batch as one snapshot through the lake writer; its schema changes are read from the catalog around it. */
  async writeRecords(batch: RecordsBatch): Promise<SyncWritten> {
    const deleted = batch.deleted?.records.map((record) => ({ ...record.key, [deletedAtColumn]: record.deletedAt })) ?? [];
    if (batch.records.length === 0 && deleted.length === 0) return { rows: 0, deleted: 0, schemaChanges: [] };
    const before = await this.columns(batch.table);
    const result = await this.deps.writer.writeRecords(this.workspaceId, {
      table: batch.table,
      records: batch.records,
      mode: 'append',
      primaryKey: batch.primaryKey,
      source: 'sync',
      commitInfo: batch.commitInfo,
      lane: 'background',
      ...(deleted.length ? { deleted: { records: deleted, mark: batch.deleted!.mark } } : {}),
    });
    const after = await this.columns(batch.table);
    await this.registered(batch, result.createdTable);
    const schemaChanges = before ? columnDifferences(batch.table, before, after ?? [], 'widened') : [];
    return { rows: result.rowsWritten, deleted: result.rowsDeleted, schemaChanges };
  }

  /**
   * Swaps a full refresh's staging table in for its target, in one snapshot whose commit information
   * says how the new table differs from the old one (see swapInStaging); the registry then knows the
   * target (created with `key`), not the staging table. Returns those differences.
   */
  async swapInStaging(swap: {
    staging: TableName;
    target: TableName;
    key: string[];
    message: string;
    commitInfo: (changes: SchemaChange[]) => Record<string, unknown>;
  }): Promise<SchemaChange[]> {
    const before = await this.columns(swap.target);
    const after = await this.columns(swap.staging);
    const changes = before && after ? columnDifferences(swap.target, before, after, 'retyped') : [];
    const targetExists = await swapInStaging(this.instance.connection, {
      metadataSchema: this.metadataSchema,
      schema: swap.target.schema,
      staging: swap.staging.table,
      target: swap.target.table,
      message: swap.message,
      commitInfo: { ...swap.commitInfo(changes), records_written: 0 },
    });
    const registry = new TableRegistry(this.deps.store);
    await registry.dropped(this.workspaceId, swap.staging);
    if (targetExists) await registry.created(this.workspaceId, swap.target, swap.key, this.now());
    return changes;
  }

  /**
   * For a source that cannot tell its deletions: deletes, or marks with `_deleted_at`, the rows of the
   * table whose key is not among those `list` gives (every key the source holds now), in one snapshot.
   * Returns the rows deleted; undefined when the table does not exist (`list` is then not asked).
   */
  async deleteUnlisted(request: Omit<SyncWrite, 'register'> & { key: string[]; mark: boolean; list: () => Promise<ListedKeys> }): Promise<number | undefined> {
    const columns = await this.columns(request.table);
    if (!columns) return undefined;
    const { connection } = this.instance;
    const { key } = request;
    const listing = await request.list();
    const staged = `keys_${Bun.randomUUIDv7().replaceAll('-', '')}`;
    const file = join(this.instance.tempDir, `${staged}.json`);
    try {
      if ('relation' in listing)
        await connection.run(`CREATE TEMP TABLE ${sqlIdentifier(staged)} AS SELECT ${key.map(sqlIdentifier).join(', ')} FROM (${listing.relation})`);
      else {
        await Bun.write(file, JSON.stringify(listing.records));
        const types = key.map(
          (name) => `${sqlString(name)}: ${sqlString(columns.find((column) => column.name.toLowerCase() === name.toLowerCase())?.type ?? 'VARCHAR')}`,
        );
        await connection.run(
          `CREATE TEMP TABLE ${sqlIdentifier(staged)} AS SELECT * FROM system.main.read_json(${sqlString(file)}, format = 'array', columns = {${types.join(', ')}})`,
        );
      }
      const matches = key.map((name) => `listed.${sqlIdentifier(name)} = kept.${sqlIdentifier(name)}`).join(' AND ');
      const gone = `SELECT ${key.map((name) => `kept.${sqlIdentifier(name)}`).join(', ')}, now() AS ${sqlIdentifier(deletedAtColumn)} FROM ${qualifiedSql(request.table)} AS kept
      WHERE NOT EXISTS (SELECT 1 FROM temp.main.${sqlIdentifier(staged)} AS listed WHERE ${matches})`;
      const written = await writeRelation(connection, {
        table: request.table,
        deletions: { all: false, deleted: gone, mark: request.mark, key },
        message: request.message,
        commitInfo: request.commitInfo,
        watch: { signal: request.signal },
      });
      return written.rowsDeleted;
    } finally {
      rmSync(file, { force: true });
      await connection.run(`DROP TABLE IF EXISTS temp.main.${sqlIdentifier(staged)}`).catch(() => {});
    }
  }

  private async registered(write: Pick<SyncWrite, 'table' | 'register'>, created: boolean): Promise<void> {
    if (!write.register) return;
    const registry = new TableRegistry(this.deps.store);
    if (created) await registry.created(this.workspaceId, write.table, write.register.key, this.now());
    else await registry.written(this.workspaceId, write.table, this.now());
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

/**
 * How a table's columns differ from what they were: new ones, changed types (`changed` says how a
 * change is named: a write widens, a replacing table retypes) and, for a replacement, missing ones.
 */
function columnDifferences(table: TableName, before: CatalogColumn[], after: CatalogColumn[], changed: 'widened' | 'retyped'): SchemaChange[] {
  const qualified = `${table.schema}.${table.table}`;
  const previous = new Map(before.map((column) => [column.name.toLowerCase(), column.type]));
  const current = new Set(after.map((column) => column.name.toLowerCase()));
  const differences = after.flatMap((column): SchemaChange[] => {
    const type = previous.get(column.name.toLowerCase());
    if (type === undefined) return [{ table: qualified, column: column.name, change: 'added', to: column.type }];
    return type === column.type ? [] : [{ table: qualified, column: column.name, change: changed, from: type, to: column.type }];
  });
  const dropped =
    changed === 'retyped'
      ? before
          .filter((column) => !current.has(column.name.toLowerCase()))
          .map((column): SchemaChange => ({ table: qualified, column: column.name, change: 'dropped', from: column.type }))
      : [];
  return [...differences, ...dropped];
}

function qualifiedSql(table: TableName): string {
  return `${lakeAlias}.${sqlIdentifier(table.schema)}.${sqlIdentifier(table.table)}`;
}
