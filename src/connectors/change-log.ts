import type { ConnectorContext, StreamSelection } from './connector';

/** What a connection's replication is called on its source: one slot and one publication, named after the connection. */
export interface ReplicationNames {
  slot: string;
  publication: string;
}

/** One stream's part of a batch of the change log: relations over the sync instance (SQL the service wrote). */
export interface StreamChanges {
  stream: string;
  /** The rows of the keys that changed, as the source holds them now (inserted or updated, a row per key); absent: no key changed. */
  upserts?: string;
  /** The keys that changed and the source no longer holds, each with `_deleted_at` (when it was deleted). */
  deleted?: string;
  /** The source table was emptied (TRUNCATE): every row goes before the upserts. */
  truncated: boolean;
  /** Changes of this stream the batch read from the log. */
  changes: number;
  /** Bytes of the rows read back, as the source stores them. */
  bytesRead: number;
}

/** Changes of the log up to `endLsn`, by stream. The slot is advanced past them when the next batch is asked for. */
export interface ChangeBatch {
  streams: StreamChanges[];
  endLsn: string;
  /** Drops what the batch staged in the sync instance. */
  release(): Promise<void>;
}

/**
 * A source's change log (Postgres' logical replication): the streams of a connection that read from
 * it rather than by cursor, the publication and slot that hold their changes, and the changes since
 * the slot's confirmed position, a batch at a time. Asking for the next batch confirms the last one:
 * a caller commits a batch to the lake before it asks again, so a crash re-reads it (its writes are
 * upserts and deletes by key: applying a batch again changes nothing) and never skips one.
 */
export interface ChangeLog<Spec> {
  /** Whether the stream, in its mode, is read from the log. */
  reads(spec: Spec, stream: StreamSelection): boolean;
  /**
   * Makes the publication hold exactly these streams' tables and the slot exist, after checking the
   * source allows it (wal_level, privileges, replica identities). `created`: the slot is new, made at `lsn`.
   */
  prepare(context: ConnectorContext<Spec>, streams: StreamSelection[], names: ReplicationNames): Promise<{ created: boolean; lsn: string }>;
  changes(context: ConnectorContext<Spec>, request: { streams: StreamSelection[]; names: ReplicationNames; maxChanges: number; signal?: AbortSignal }): AsyncGenerator<ChangeBatch>;
  /** Drops the slot and the publication (either may be gone already). */
  drop(context: ConnectorContext<Spec>, names: ReplicationNames): Promise<void>;
}
