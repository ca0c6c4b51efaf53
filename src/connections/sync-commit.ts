import type { JsonValue } from '../connectors/connector';
import type { CommitInfo, SchemaChange } from '../engine/sync/sync-lake';

/**
 * What every snapshot a sync writes carries in its commit information, so that the lake itself says
 * how far each stream of each job got: a worker killed mid-sync resumes after the last batch that
 * committed, and the next job starts from the cursor the last write to the table committed with.
 *
 * Phases: `staging` batches went into a full refresh's staging table (the target is unchanged),
 * `batch` ones into the target itself, `done` is the staging table swapped in, `changes` a batch of a
 * source's change log (its position is the log's, never a cursor a later read could start from).
 */
export interface SyncCommitInfo {
  sync_connection: string;
  sync_stream: string;
  sync_job: string;
  sync_phase: 'staging' | 'batch' | 'done' | 'changes';
  sync_batch: number;
  /** Where the next batch of this job starts. */
  sync_position: JsonValue;
  /** The stream's cursor once this snapshot is in. */
  sync_cursor: JsonValue;
  /** The cursor the job started from (incremental reads compare with it). */
  sync_since: JsonValue;
  /** The job's totals for the stream before this batch, and what this batch read. */
  sync_before: StreamTotals;
  /** What this batch read, when known before it is written (records, files); else counted from the rows written. */
  sync_batch_read: number | null;
  sync_batch_bytes: number | null;
  sync_bytes_per_row: number;
  sync_schema_changes: SchemaChange[];
  /** Set by the writers: the rows this snapshot wrote, and those it deleted or marked (records deleted at the source). */
  records_written?: number;
  records_deleted?: number;
}

export interface StreamTotals {
  rows: number;
  read: number;
  bytes: number;
  /** Absent in commits made before deletions were synced. */
  deleted?: number;
}

export const zeroTotals: StreamTotals = { rows: 0, read: 0, bytes: 0, deleted: 0 };

/** The stream's totals once the commit's batch is in. */
export function totalsAfter(info: SyncCommitInfo): StreamTotals {
  const written = info.records_written ?? 0;
  return {
    rows: info.sync_before.rows + written,
    read: info.sync_before.read + (info.sync_batch_read ?? written),
    bytes: info.sync_before.bytes + Math.round(info.sync_batch_bytes ?? written * info.sync_bytes_per_row),
    deleted: (info.sync_before.deleted ?? 0) + (info.records_deleted ?? 0),
  };
}

export function asSyncCommit(info: CommitInfo | undefined): SyncCommitInfo | undefined {
  return info && typeof info.sync_job === 'string' ? (info as unknown as SyncCommitInfo) : undefined;
}
