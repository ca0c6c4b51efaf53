import type { TObject } from '@sinclair/typebox';
import type { EngineConnection } from '../engine/duckdb/engine-connection';
import type { LiveSource } from '../engine/live/live-sources';
import type { ConnectorCredentials } from './credentials';
import type { EgressRoute } from './egress-proxy';
import type { CheckedAddress, SourceAddress } from './source-address';

/** Airbyte's words: how a stream's rows reach its lake table. */
export const syncModes = ['full_refresh_overwrite', 'full_refresh_append', 'incremental_append', 'incremental_append_deduped'] as const;
export type SyncMode = (typeof syncModes)[number];

/** JSON as stored in commit information and the metadata store. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface ColumnInfo {
  name: string;
  /** The DuckDB type the column has in the lake. */
  type: string;
  nullable: boolean;
}

export interface StreamInfo {
  name: string;
  columns: ColumnInfo[];
  primary_key: string[];
  cursor_candidates: string[];
  supported_sync_modes: SyncMode[];
  row_estimate?: number;
  /** The source keeps its own modification stamp (`default_cursor_field`): incremental modes use it, no other. */
  source_defined_cursor?: boolean;
  default_cursor_field?: string;
  /** Why the credentials cannot read the stream (a missing scope, an object absent or not permitted); absent: readable. */
  unavailable?: string;
}

/** How one stream is synced in one job. */
export interface StreamSelection {
  name: string;
  syncMode: SyncMode;
  cursorField?: string;
  primaryKey: string[];
}

export interface ReadRequest {
  stream: StreamSelection;
  /** Where the job's last committed batch of this stream ended (resuming after a crash); null at the start. */
  position: JsonValue | null;
  /** The stream's cursor from earlier syncs (incremental modes); null to read everything. */
  cursor: JsonValue | null;
  /** Rows a batch holds at most (sources that count files or pages approximate it). */
  batchRows: number;
  /** Rows a batch holds when the source reads each one by a scan of the whole table (larger: each costs a pass). */
  scanBatchRows?: number;
  signal?: AbortSignal;
}

/** A record deleted at the source: its key fields, and when it was deleted (ISO 8601). */
export interface DeletedRecord {
  key: Record<string, unknown>;
  deletedAt: string;
}

/** Read progress that goes with every batch. */
interface BatchEnd {
  /** Where the next batch starts; committed with this one. */
  position: JsonValue;
  /** The stream's cursor once this batch is in (incremental modes), else null. */
  cursor: JsonValue | null;
  /** No batch follows: the stream's whole remaining read (a first one may be written over the table at once). */
  last?: boolean;
}

/**
 * A batch of a stream: a relation (a SELECT the service wrote over what the connector attached to the
 * sync instance) that the engine writes into the lake, or records that go through the lake writer's
 * record path (type inference and schema evolution).
 */
export type Batch =
  | (BatchEnd & {
      kind: 'relation';
      select: string;
      /** Among rows of one key, these columns order the latest first. */
      latestFirst?: string[];
      /** Bytes read from the source, when the source tells (file sizes)… */
      bytesRead?: number;
      /** …or an estimate per row written. */
      bytesPerRow?: number;
      /** How many rows the batch holds, exactly or as the source estimates it: a long batch's progress is told from it. */
      expectedRows?: number;
    })
  | (BatchEnd & {
      kind: 'records';
      records: Record<string, unknown>[];
      recordsRead: number;
      bytesRead: number;
      /** Records the source says were deleted (archived, in the recycle bin): deleted or marked in the lake with this batch. */
      deleted?: DeletedRecord[];
    });

/** The source as a connector sees it: its spec (secrets opened), its credentials, its checked addresses, an engine. */
export interface ConnectorContext<Spec> {
  spec: Spec;
  credentials: ConnectorCredentials;
  /** The addresses of `addresses(spec)`, checked, in the same order: what a connection pins. */
  checked: CheckedAddress[];
  /** Checks an address the connector meets while reading (a pagination link): throws SOURCE_NOT_ALLOWED. */
  allow: (address: SourceAddress) => Promise<CheckedAddress>;
  /** The proxy the session's engine sends its HTTP through (every connection checked), created on first use. */
  egress: () => Promise<EgressRoute>;
  /** The DuckDB instance of this source session, opened on first use with `engineExtensions` loaded. */
  engine: () => Promise<EngineConnection>;
  signal?: AbortSignal;
}

/** What a connection in live query mode attaches, without its name and alias (the connection gives those). */
export type LiveAttachment = Omit<LiveSource, 'name' | 'alias'>;

/**
 * One type of source. Adding a type means one module exposing this and a line in the registry.
 * Failures of the source itself (unreachable, refused, malformed answers) are thrown as SourceError.
 */
export interface Connector<Spec = unknown> {
  type: string;
  name: string;
  description: string;
  /** `oauth` types get their tokens from the credentials, never from the spec. */
  auth: 'none' | 'oauth';
  /** JSON Schema of the spec; `writeOnly` fields are secrets (sealed at rest, masked in answers). */
  spec: TObject;
  /** DuckDB extensions its reads need in the sync instance (none when it reads records itself). */
  engineExtensions: readonly string[];
  supportedSyncModes: readonly SyncMode[];
  supportsLive: boolean;
  /**
   * Every network address the spec makes the service reach: checked before anything connects, and
   * what the connection's secrets are bound to. Throws SpecValueError for a value it cannot use.
   */
  addresses(spec: Spec): SourceAddress[];
  /** Connects and reads as little as possible; throws SourceError with a useful message. */
  check(context: ConnectorContext<Spec>): Promise<void>;
  discover(context: ConnectorContext<Spec>): Promise<StreamInfo[]>;
  read(context: ConnectorContext<Spec>, request: ReadRequest): AsyncGenerator<Batch>;
  /** What a live connection attaches; only when `supportsLive`. */
  live?(context: ConnectorContext<Spec>): LiveAttachment;
  /** Streams read from the source's own change log (with their deletions), when the source keeps one. */
  changeLog?: ChangeLog<Spec>;
  /** Every stream's incremental cursor is the source's own modification stamp (a CRM): none is ever chosen. */
  ownCursors?: boolean;
  /** Every key the stream's source holds now, for sources that cannot tell their deletions (see key comparisons). */
  keys?(context: ConnectorContext<Spec>, stream: StreamSelection): Promise<KeyListing>;
}

/** A stream's keys: a relation over the sync instance (SQL the service wrote), or records holding the key fields. */
export type KeyListing = { relation: string } | { records: Record<string, unknown>[] };

/**
 * A connector of any type, as the rest of the service holds it: a spec reaches a connector only
 * after it has been validated against that connector's own schema (defaults filled in).
 */
export type AnyConnector = Connector<Record<string, unknown>>;

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
  changes(
    context: ConnectorContext<Spec>,
    request: { streams: StreamSelection[]; names: ReplicationNames; maxChanges: number; signal?: AbortSignal },
  ): AsyncGenerator<ChangeBatch>;
  /** Drops the slot and the publication (either may be gone already). */
  drop(context: ConnectorContext<Spec>, names: ReplicationNames): Promise<void>;
}
