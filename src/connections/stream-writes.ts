import type { Batch, StreamSelection } from '../connectors/connector';
import type { LakeWriter } from '../engine/write/lake-writer';
import type { Store } from '../store/store';
import type { SyncInstance } from '../engine/sync/sync-instance';
import { writeRelation, type SchemaChange } from '../engine/sync/relation-write';
import { dropAbandonedStaging, swapInStaging } from '../engine/sync/staging';
import { catalogColumns, type CatalogColumn } from '../engine/tables/catalog-columns';
import { TableRegistry } from '../engine/tables/table-registry';
import type { TableName } from '../engine/write/table-name';
import type { Clock } from '../util/clock';
import { deletedAtColumn } from '../engine/write/apply-deletions';
import type { DeletionMode } from './queries';
import type { SyncCommitInfo } from './sync-commit';

export interface BatchTarget {
  workspaceId: string;
  /** Where the batch goes: the stream's table, or its staging table during a full refresh that overwrites. */
  table: TableName;
  /** The stream's table (the registry remembers keys of tables, not of staging tables). */
  target: TableName;
  stream: StreamSelection;
  /** What a record deleted at the source does to its row (deduplicated streams: an appended table keeps its history). */
  deletionMode: DeletionMode;
  signal?: AbortSignal;
}

export interface BatchWritten {
  rows: number;
  /** Rows deleted or marked because their records were deleted at the source. */
  deleted: number;
  schemaChanges: SchemaChange[];
}

/**
 * Writes one batch with its commit information as one snapshot: a relation in the sync instance by
 * engine-written SQL, records through the lake writer's record path (types inferred, schema evolved)
 * on the workspace's background instance. With `incremental_append_deduped` both upsert on the key.
 */
export class StreamWrites {
  constructor(
    private readonly instance: SyncInstance,
    private readonly writer: LakeWriter,
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /** With `replace`, a relation batch is the table's whole new content: it replaces the table (a full refresh in one batch). */
  async write(batch: Batch, into: BatchTarget, info: SyncCommitInfo, replace = false): Promise<BatchWritten> {
    const deduped = into.stream.syncMode === 'incremental_append_deduped';
    const message = `sync ${into.stream.name} batch ${info.sync_batch}`;
    let written: BatchWritten & { created: boolean };
    if (batch.kind === 'relation') {
      const latestFirst = batch.latestFirst ?? (into.stream.cursorField ? [into.stream.cursorField] : []);
      const result = await writeRelation(this.instance.connection, {
        table: into.table,
        select: batch.select,
        upsert: deduped ? { key: into.stream.primaryKey, latestFirst } : undefined,
        replace,
        message,
        // A replacement's snapshot says how the new table differs from the old one, as a swap's does.
        commitInfo: replace ? (changes) => ({ ...info, sync_schema_changes: changes }) : { ...info },
        watch: { signal: into.signal },
        // A replacement ends the stream's full refresh, as a swap does: what abandoned ones left goes with it.
        alsoInTransaction: replace ? (connection) => dropAbandonedStaging(connection, this.instance.metadataSchema!, into.target.schema, into.stream.name, info.sync_job) : undefined,
      });
      written = { rows: result.rowsWritten, deleted: 0, schemaChanges: result.schemaChanges, created: result.createdTable };
    } else {
      const deleted = deduped && batch.deleted?.length ? batch.deleted.map((record) => ({ ...record.key, [deletedAtColumn]: record.deletedAt })) : [];
      if (batch.records.length === 0 && deleted.length === 0) return { rows: 0, deleted: 0, schemaChanges: [] };
      const before = await catalogColumns(this.instance.connection, into.table);
      const result = await this.writer.writeRecords(into.workspaceId, {
        table: into.table,
        records: batch.records,
        mode: 'append',
        primaryKey: deduped ? into.stream.primaryKey : undefined,
        source: 'sync',
        commitInfo: { ...info },
        lane: 'background',
        ...(deleted.length ? { deleted: { records: deleted, mark: into.deletionMode === 'mark' } } : {}),
      });
      const after = await catalogColumns(this.instance.connection, into.table);
      written = { rows: result.rowsWritten, deleted: result.rowsDeleted, schemaChanges: before ? columnDifferences(into.table, before, after ?? [], 'widened') : [], created: result.createdTable };
    }
    if (into.table === into.target) await this.register(into, written.created);
    return written;
  }

  /** Swaps the staging table in (one snapshot); the registry then knows the stream's table, not the staging one. */
  async swap(into: BatchTarget, info: SyncCommitInfo): Promise<void> {
    const targetExists = await swapInStaging(this.instance.connection, {
      metadataSchema: this.instance.metadataSchema!,
      schema: into.target.schema,
      staging: into.table.table,
      target: into.target.table,
      message: `sync ${into.stream.name} full refresh`,
      commitInfo: { ...info, records_written: 0 },
    });
    const registry = new TableRegistry(this.store);
    await registry.dropped(into.workspaceId, into.table);
    if (targetExists) await this.register(into, true);
  }

  private async register(into: BatchTarget, created: boolean): Promise<void> {
    const registry = new TableRegistry(this.store);
    const now = this.clock.now().toISOString();
    if (created) await registry.created(into.workspaceId, into.target, into.stream.syncMode === 'incremental_append_deduped' ? into.stream.primaryKey : [], now);
    else await registry.written(into.workspaceId, into.target, now);
  }
}

/**
 * How a table's columns differ from what they were: new ones, changed types (`changed` says how a
 * change is named: a write widens, a replacing table retypes) and, for a replacement, missing ones.
 */
export function columnDifferences(table: TableName, before: CatalogColumn[], after: CatalogColumn[], changed: 'widened' | 'retyped'): SchemaChange[] {
  const qualified = `${table.schema}.${table.table}`;
  const previous = new Map(before.map((column) => [column.name.toLowerCase(), column.type]));
  const current = new Set(after.map((column) => column.name.toLowerCase()));
  const differences = after.flatMap((column): SchemaChange[] => {
    const type = previous.get(column.name.toLowerCase());
    if (type === undefined) return [{ table: qualified, column: column.name, change: 'added', to: column.type }];
    return type === column.type ? [] : [{ table: qualified, column: column.name, change: changed, from: type, to: column.type }];
  });
  const dropped = changed === 'retyped' ? before.filter((column) => !current.has(column.name.toLowerCase())).map((column): SchemaChange => ({ table: qualified, column: column.name, change: 'dropped', from: column.type })) : [];
  return [...differences, ...dropped];
}
