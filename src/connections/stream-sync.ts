import type { JsonValue, StreamSelection, SyncMode } from '../connectors/connector';
import type { SchemaChange, SyncLake } from '../engine/sync/sync-lake';
import type { TableName } from '../engine/write/table-name';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { ConnectionRow } from './queries';
import type { SourceSessions } from './source-sessions';
import { StreamWrites, type BatchTarget, type BatchWritten } from './stream-writes';
import { watchBatchProgress } from './batch-progress';
import { compareKeys, keyComparisonDue, keysCompared } from './key-comparison';
import { asSyncCommit, totalsAfter, zeroTotals, type StreamTotals, type SyncCommitInfo } from './sync-commit';

export interface StreamProgress {
  records_read: number;
  records_written: number;
  records_deleted?: number;
  bytes_read: number;
}

export interface StreamOutcome {
  name: string;
  sync_mode: SyncMode;
  totals: StreamTotals;
  schemaChanges: SchemaChange[];
  table: string;
  /** The table's rows changed (or it was replaced). */
  changed: boolean;
  cursor: JsonValue;
  recordsTotal: number;
  snapshotId: number;
  engineMs: number;
}

export interface StreamSyncDeps {
  sessions: SourceSessions;
  store: Store;
  clock: Clock;
  batchRows: number;
  scanBatchRows: number;
}

export interface StreamRun {
  jobId: string;
  connection: ConnectionRow;
  stream: StreamSelection;
  signal?: AbortSignal;
  /** Settled before the first batch is read: a rejection abandons the stream (a check that ran while it opened its source). */
  writeAllowed?: Promise<void>;
  onProgress(progress: StreamProgress): void;
}

/**
 * Syncs one stream of one job into `<connection>.<stream>`. Every batch commits with the position the
 * next one starts from; a run that finds commits of its own job (its worker was killed) goes on after
 * the last one, so no row is lost or written twice. A full refresh that overwrites fills a staging
 * table and swaps it in at the end, in one snapshot; one the source reads in a single batch replaces
 * the table with it directly, also in one snapshot. Failures of the source or the lake are thrown.
 */
export async function syncStream(deps: StreamSyncDeps, run: StreamRun): Promise<StreamOutcome> {
  const startedAt = performance.now();
  const session = await deps.sessions.open(run.connection, { withLake: true, signal: run.signal });
  try {
    const lake = await session.lake();
    const { connection, stream, jobId } = run;
    const target: TableName = { schema: connection.name, table: stream.name };
    const overwrite = stream.syncMode === 'full_refresh_overwrite';
    const table = overwrite ? lake.stagingTable(target, jobId) : target;
    const into: BatchTarget = { table, target, stream, deletionMode: connection.deletion_mode, signal: run.signal };
    const writes = new StreamWrites(lake);

    const resumed = asSyncCommit(await lake.findCommit({ sync_job: jobId, sync_stream: stream.name }, (info) => info.sync_connection === connection.id));
    let totals = resumed ? totalsAfter(resumed) : zeroTotals;
    let schemaChanges = resumed?.sync_schema_changes ?? [];
    let cursor: JsonValue = resumed ? resumed.sync_cursor : null;
    let batchNumber = resumed?.sync_batch ?? 0;
    let position: JsonValue = resumed?.sync_position ?? null;
    let replaced = false;
    const since = resumed ? resumed.sync_since : await startingCursor(lake, connection, stream, target);
    if (!resumed) cursor = since;

    if (resumed?.sync_phase !== 'done') {
      const base = {
        sync_connection: connection.id,
        sync_stream: stream.name,
        sync_job: jobId,
        sync_phase: overwrite ? 'staging' : 'batch',
        sync_since: since,
      } as const;
      const request = {
        stream,
        position: resumed?.sync_position ?? null,
        cursor: since,
        batchRows: deps.batchRows,
        scanBatchRows: deps.scanBatchRows,
        signal: run.signal,
      };
      await run.writeAllowed;
      // The lake's catalog loads while the source is asked what to read (the source's work touches no lake).
      const lakeLoaded = lake.loadCatalog();
      for await (const batch of session.connector.read(session.context, request)) {
        await lakeLoaded;
        batchNumber += 1;
        cursor = batch.cursor ?? cursor;
        position = batch.position;
        const info: SyncCommitInfo = {
          ...base,
          sync_batch: batchNumber,
          sync_position: batch.position,
          sync_cursor: cursor,
          sync_before: totals,
          sync_batch_read: batch.kind === 'records' ? batch.recordsRead : null,
          sync_batch_bytes: batch.bytesRead ?? null,
          sync_bytes_per_row: batch.kind === 'relation' ? (batch.bytesPerRow ?? 0) : 0,
          sync_schema_changes: schemaChanges,
        };
        // A full refresh read in one batch replaces the table itself, in one snapshot: no staging table to swap in.
        const replacing = overwrite && batchNumber === 1 && batch.last === true && batch.kind === 'relation';
        const watch = watchBatchProgress(lake, batch, totals, (estimate) => run.onProgress(progressOf(estimate)));
        let written: BatchWritten;
        try {
          written = replacing
            ? await writes.write(batch, { ...into, table: target }, { ...info, sync_phase: 'done' }, true)
            : await writes.write(batch, into, info);
        } finally {
          watch.stop();
        }
        if (!overwrite || replacing) schemaChanges = [...schemaChanges, ...written.schemaChanges];
        replaced ||= replacing;
        totals = totalsAfter({ ...info, records_written: written.rows, records_deleted: written.deleted });
        run.onProgress(progressOf(totals));
      }
      await lakeLoaded;
      if (overwrite && !replaced) {
        const swapped: Omit<SyncCommitInfo, 'sync_schema_changes'> = {
          ...base,
          sync_phase: 'done',
          sync_batch: batchNumber + 1,
          sync_position: null,
          sync_cursor: cursor,
          sync_before: totals,
          sync_batch_read: 0,
          sync_batch_bytes: 0,
          sync_bytes_per_row: 0,
        };
        schemaChanges = await writes.swap(into, (changes) => ({ ...swapped, sync_schema_changes: changes }));
      }
    }
    if (session.connector.keys && (await keyComparisonDue(deps.store, connection, stream, deps.clock.now()))) {
      const base = { sync_connection: connection.id, sync_stream: stream.name, sync_job: jobId, sync_phase: 'batch', sync_since: since } as const;
      totals = await compareKeys(
        lake,
        session,
        { connection, stream, target, signal: run.signal },
        {
          ...base,
          sync_batch: batchNumber + 1,
          sync_position: position,
          sync_cursor: cursor,
          sync_before: totals,
          sync_batch_read: 0,
          sync_batch_bytes: 0,
          sync_bytes_per_row: 0,
          sync_schema_changes: schemaChanges,
        },
      );
      run.onProgress(progressOf(totals));
      await keysCompared(deps.store, connection, stream, deps.clock.now());
    }
    // An overwritten table holds exactly the rows this job wrote: no need to count them again.
    const recordsTotal = overwrite ? totals.rows : await lake.rowCount(target);
    return {
      name: stream.name,
      sync_mode: stream.syncMode,
      totals,
      schemaChanges,
      table: `${target.schema}.${target.table}`,
      changed: overwrite || totals.rows > 0 || (totals.deleted ?? 0) > 0,
      cursor,
      recordsTotal,
      snapshotId: await lake.snapshotId(),
      engineMs: Math.round(performance.now() - startedAt),
    };
  } catch (error) {
    // A read the egress proxy refused (a redirect to an address no connection may reach) fails as that.
    throw (await session.refusal()) ?? error;
  } finally {
    await session.close();
  }
}

export function progressOf(totals: StreamTotals): StreamProgress {
  return { records_read: totals.read, records_written: totals.rows, records_deleted: totals.deleted ?? 0, bytes_read: totals.bytes };
}

/**
 * Where an incremental read starts: the cursor the last write to the stream's table committed with
 * (a batch into the table, or a full refresh swapped in). A table that is gone starts from nothing.
 */
async function startingCursor(lake: SyncLake, connection: ConnectionRow, stream: StreamSelection, target: TableName): Promise<JsonValue> {
  if (!stream.syncMode.startsWith('incremental')) return null;
  if (!(await lake.columns(target))) return null;
  const state = asSyncCommit(
    await lake.findCommit({ sync_connection: connection.id, sync_stream: stream.name }, (info) => info.sync_phase === 'batch' || info.sync_phase === 'done'),
  );
  return state?.sync_cursor ?? null;
}
