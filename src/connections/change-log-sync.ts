import type { StreamChanges, StreamSelection } from '../connectors/connector';
import type { SyncLake } from '../engine/sync/sync-lake';
import type { ConnectionRow } from './queries';
import { replicationNames, type ReplicationState } from './replication-state';
import type { SourceSession } from './source-sessions';
import { progressOf, syncStream, type StreamOutcome, type StreamProgress, type StreamSyncDeps } from './stream-sync';
import { asSyncCommit, totalsAfter, zeroTotals, type StreamTotals, type SyncCommitInfo } from './sync-commit';

export interface ChangeLogDeps extends StreamSyncDeps {
  replication: ReplicationState;
}

export interface ChangeLogRun {
  jobId: string;
  connection: ConnectionRow;
  streams: StreamSelection[];
  signal?: AbortSignal;
  /** Settled before anything is written (the storage check). */
  writeAllowed?: Promise<void>;
  onProgress(stream: string, progress: StreamProgress): void;
}

/** Changes read from the log per batch at most (whole transactions: a larger one comes whole), whatever the batch size: each key is a literal of the query that reads the rows back. */
const maxChangesPerBatch = 20_000;

/**
 * Syncs a connection's streams that read from the source's change log, all through the connection's
 * one slot: the publication and slot made to match them, a full read of each table not yet read under
 * this slot (a new slot knows nothing of what happened before it), then the log's changes batch by
 * batch, each stream's part one snapshot (its rows upserted, its deleted keys deleted or marked), the
 * slot confirmed past a batch only once the lake holds it. A worker killed anywhere re-reads at most
 * the batch it was on, and applying a batch again leaves the tables as they were: nothing lost or doubled.
 */
export async function syncChangeLog(deps: ChangeLogDeps, run: ChangeLogRun): Promise<StreamOutcome[]> {
  const startedAt = performance.now();
  const { connection } = run;
  const names = replicationNames(connection.id);
  const session = await deps.sessions.open(connection, { withLake: true, signal: run.signal });
  try {
    const changeLog = session.connector.changeLog;
    if (!changeLog) throw new Error(`connectors of type ${connection.connector_type} keep no change log`);
    const slot = await changeLog.prepare(session.context, run.streams, names);
    const state = await deps.replication.current(connection, slot, deps.clock.now().toISOString());
    for (const stream of run.streams.filter((candidate) => state.snapshots[candidate.name] !== state.createdLsn)) {
      await run.writeAllowed;
      await syncStream(deps, {
        ...run,
        stream: { ...stream, syncMode: 'full_refresh_overwrite' },
        onProgress: (progress) => run.onProgress(stream.name, progress),
      });
      state.snapshots[stream.name] = state.createdLsn;
      await deps.replication.snapshotted(connection.id, state.createdLsn, state.snapshots);
    }
    const lake = await session.lake();
    await lake.loadCatalog();
    const totals = new Map<string, StreamTotals>();
    const positions = new Map<string, string | null>();
    for (const stream of run.streams) {
      const last = asSyncCommit(await lake.findCommit({ sync_job: run.jobId, sync_stream: stream.name }, (info) => info.sync_connection === connection.id));
      totals.set(stream.name, last ? totalsAfter(last) : zeroTotals);
      positions.set(stream.name, null);
    }
    await run.writeAllowed;
    const changes = changeLog.changes(session.context, {
      streams: run.streams,
      names,
      maxChanges: Math.min(maxChangesPerBatch, deps.batchRows),
      signal: run.signal,
    });
    for await (const batch of changes) {
      for (const part of batch.streams) {
        const stream = run.streams.find((candidate) => candidate.name === part.stream)!;
        const written = await writeChanges(lake, run, stream, part, totals.get(stream.name)!, batch.endLsn);
        totals.set(stream.name, written);
        positions.set(stream.name, batch.endLsn);
        run.onProgress(stream.name, progressOf(written));
      }
    }
    return await outcomes(lake, run, totals, positions, Math.round(performance.now() - startedAt));
  } finally {
    await session.close();
  }
}

/** One stream's part of a batch as one snapshot of its table; the table's registry entry says it was written. */
async function writeChanges(
  lake: SyncLake,
  run: ChangeLogRun,
  stream: StreamSelection,
  part: StreamChanges,
  before: StreamTotals,
  endLsn: string,
): Promise<StreamTotals> {
  const table = { schema: run.connection.name, table: stream.name };
  const info: SyncCommitInfo = {
    sync_connection: run.connection.id,
    sync_stream: stream.name,
    sync_job: run.jobId,
    sync_phase: 'changes',
    sync_batch: 0,
    sync_position: { lsn: endLsn },
    sync_cursor: endLsn,
    sync_since: null,
    sync_before: before,
    sync_batch_read: part.changes,
    sync_batch_bytes: part.bytesRead,
    sync_bytes_per_row: 0,
    sync_schema_changes: [],
  };
  const written = await lake.writeRelation({
    table,
    select: part.upserts,
    upsert: { key: stream.primaryKey },
    deletions: { all: part.truncated, deleted: part.deleted, mark: run.connection.deletion_mode === 'mark', key: stream.primaryKey },
    message: `sync ${stream.name} changes to ${endLsn}`,
    commitInfo: { ...info },
    register: { key: stream.primaryKey },
    signal: run.signal,
  });
  return totalsAfter({ ...info, records_written: written.rows, records_deleted: written.deleted });
}

async function outcomes(
  lake: SyncLake,
  run: ChangeLogRun,
  totals: Map<string, StreamTotals>,
  positions: Map<string, string | null>,
  engineMs: number,
): Promise<StreamOutcome[]> {
  const snapshotId = await lake.snapshotId();
  const results: StreamOutcome[] = [];
  for (const stream of run.streams) {
    const table = { schema: run.connection.name, table: stream.name };
    const streamTotals = totals.get(stream.name)!;
    results.push({
      name: stream.name,
      sync_mode: stream.syncMode,
      totals: streamTotals,
      schemaChanges: [],
      table: `${table.schema}.${table.table}`,
      changed: streamTotals.rows > 0 || (streamTotals.deleted ?? 0) > 0,
      cursor: positions.get(stream.name) ?? null,
      recordsTotal: await lake.rowCount(table),
      snapshotId,
      engineMs,
    });
  }
  return results;
}

/** Drops a connection's slot and publication on its source, and forgets them. */
export async function dropChangeLog(session: SourceSession, replication: ReplicationState, connectionId: string): Promise<void> {
  await session.connector.changeLog?.drop(session.context, replicationNames(connectionId));
  await replication.forget(connectionId);
}
