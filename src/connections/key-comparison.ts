import type { StreamSelection } from '../connectors/connector';
import type { SyncLake } from '../engine/sync/sync-lake';
import type { TableName } from '../engine/write/table-name';
import type { Store } from '../store/store';
import { parseDuration } from '../util/duration';
import { findSyncState, markKeysCompared, type ConnectionRow } from './queries';
import type { SourceSession } from './source-sessions';
import { totalsAfter, type StreamTotals, type SyncCommitInfo } from './sync-commit';

/** Whether the stream's keys are due for a comparison: the connection asks for them, and the last one is older than it says. */
export async function keyComparisonDue(store: Store, connection: ConnectionRow, stream: StreamSelection, now: Date): Promise<boolean> {
  const every = connection.key_comparison_every === null ? undefined : parseDuration(connection.key_comparison_every);
  if (every === undefined || stream.syncMode !== 'incremental_append_deduped') return false;
  const state = await store.first(findSyncState, { connection_id: connection.id, stream: stream.name });
  return !state?.keys_compared_at || now.getTime() - Date.parse(state.keys_compared_at) >= every;
}

/**
 * For a source that cannot tell its deletions: lists every key the source holds now (after the
 * stream's read, so a row it just wrote is listed) and deletes, or marks with `_deleted_at`, the rows
 * of the table whose key is not listed, in one snapshot with the commit information of the stream's
 * last batch. Returns the stream's totals with those rows counted as deleted.
 */
export async function compareKeys(
  lake: SyncLake,
  session: SourceSession,
  run: { connection: ConnectionRow; stream: StreamSelection; target: TableName; signal?: AbortSignal },
  info: SyncCommitInfo,
): Promise<StreamTotals> {
  const keys = session.connector.keys?.bind(session.connector);
  if (!keys) return totalsAfter(info);
  const deleted = await lake.deleteUnlisted({
    table: run.target,
    key: run.stream.primaryKey,
    list: () => keys(session.context, run.stream),
    mark: run.connection.deletion_mode === 'mark',
    message: `sync ${run.stream.name} key comparison`,
    commitInfo: { ...info },
    signal: run.signal,
  });
  return deleted === undefined ? totalsAfter(info) : totalsAfter({ ...info, records_written: 0, records_deleted: deleted });
}

/** The stream's keys were compared now. */
export async function keysCompared(store: Store, connection: ConnectionRow, stream: StreamSelection, now: Date): Promise<void> {
  await store.run(markKeysCompared, { connection_id: connection.id, stream: stream.name, now: now.toISOString() });
}
