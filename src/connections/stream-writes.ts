import type { Batch, StreamSelection } from '../connectors/connector';
import type { SchemaChange, SyncLake } from '../engine/sync/sync-lake';
import type { TableName } from '../engine/write/table-name';
import type { DeletionMode } from './queries';
import type { SyncCommitInfo } from './sync-commit';

export interface BatchTarget {
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
 * Writes one batch of a stream with its commit information as one snapshot, through the sync's lake: a
 * relation by engine-written SQL on the sync instance, records through the lake writer's record path
 * (types inferred, schema evolved). With `incremental_append_deduped` both upsert on the stream's key,
 * and records deleted at the source are deleted or marked. The registry learns of the stream's table
 * (not of a staging table), with its key when deduplicated.
 */
export class StreamWrites {
  constructor(private readonly lake: SyncLake) {}

  /** With `replace`, a relation batch is the table's whole new content: it replaces the table (a full refresh in one batch). */
  write(batch: Batch, into: BatchTarget, info: SyncCommitInfo, replace = false): Promise<BatchWritten> {
    const deduped = into.stream.syncMode === 'incremental_append_deduped';
    const write = {
      table: into.table,
      message: `sync ${into.stream.name} batch ${info.sync_batch}`,
      register: into.table === into.target ? { key: deduped ? into.stream.primaryKey : [] } : undefined,
      signal: into.signal,
    };
    if (batch.kind === 'relation') {
      const latestFirst = batch.latestFirst ?? (into.stream.cursorField ? [into.stream.cursorField] : []);
      return this.lake.writeRelation({
        ...write,
        select: batch.select,
        upsert: deduped ? { key: into.stream.primaryKey, latestFirst } : undefined,
        replace: replace ? { jobId: info.sync_job } : undefined,
        // A replacement's snapshot says how the new table differs from the old one, as a swap's does.
        commitInfo: replace ? (changes) => ({ ...info, sync_schema_changes: changes }) : { ...info },
      });
    }
    return this.lake.writeRecords({
      ...write,
      records: batch.records,
      primaryKey: deduped ? into.stream.primaryKey : undefined,
      commitInfo: { ...info },
      deleted: deduped && batch.deleted?.length ? { records: batch.deleted, mark: into.deletionMode === 'mark' } : undefined,
    });
  }

  /** Swaps the staging table in (one snapshot); the registry then knows the stream's table, not the staging one. Returns how the new table differs from the old. */
  swap(into: BatchTarget, info: (changes: SchemaChange[]) => SyncCommitInfo): Promise<SchemaChange[]> {
    return this.lake.swapInStaging({
      staging: into.table,
      target: into.target,
      key: into.stream.syncMode === 'incremental_append_deduped' ? into.stream.primaryKey : [],
      message: `sync ${into.stream.name} full refresh`,
      commitInfo: (changes) => ({ ...info(changes) }),
    });
  }
}
