import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { StreamSelection } from '../connectors/connector';
import { lakeAlias } from '../engine/catalog-names';
import { sqlIdentifier, sqlString } from '../engine/sql-literals';
import { writeRelation } from '../engine/sync/relation-write';
import type { SyncInstance } from '../engine/sync/sync-instance';
import { catalogColumns } from '../engine/tables/catalog-columns';
import { deletedAtColumn } from '../engine/write/apply-deletions';
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
export async function compareKeys(instance: SyncInstance, session: SourceSession, run: { connection: ConnectionRow; stream: StreamSelection; target: TableName; signal?: AbortSignal }, info: SyncCommitInfo): Promise<StreamTotals> {
  const columns = await catalogColumns(instance.connection, run.target);
  const key = run.stream.primaryKey;
  if (!columns || !session.connector.keys) return totalsAfter(info);
  const listing = await session.connector.keys(session.context, run.stream);
  const staged = `keys_${Bun.randomUUIDv7().replaceAll('-', '')}`;
  const file = join(instance.tempDir, `${staged}.json`);
  try {
    if ('relation' in listing) await instance.connection.run(`CREATE TEMP TABLE ${sqlIdentifier(staged)} AS SELECT ${key.map(sqlIdentifier).join(', ')} FROM (${listing.relation})`);
    else {
      await Bun.write(file, JSON.stringify(listing.records));
      const types = key.map((name) => `${sqlString(name)}: ${sqlString(columns.find((column) => column.name.toLowerCase() === name.toLowerCase())?.type ?? 'VARCHAR')}`);
      await instance.connection.run(`CREATE TEMP TABLE ${sqlIdentifier(staged)} AS SELECT * FROM system.main.read_json(${sqlString(file)}, format = 'array', columns = {${types.join(', ')}})`);
    }
    const table = `${lakeAlias}.${sqlIdentifier(run.target.schema)}.${sqlIdentifier(run.target.table)}`;
    const matches = key.map((name) => `listed.${sqlIdentifier(name)} = kept.${sqlIdentifier(name)}`).join(' AND ');
    const gone = `SELECT ${key.map((name) => `kept.${sqlIdentifier(name)}`).join(', ')}, now() AS ${sqlIdentifier(deletedAtColumn)} FROM ${table} AS kept
      WHERE NOT EXISTS (SELECT 1 FROM temp.main.${sqlIdentifier(staged)} AS listed WHERE ${matches})`;
    const written = await writeRelation(instance.connection, {
      table: run.target,
      deletions: { all: false, deleted: gone, mark: run.connection.deletion_mode === 'mark', key },
      message: `sync ${run.stream.name} key comparison`,
      commitInfo: { ...info },
      watch: { signal: run.signal },
    });
    return totalsAfter({ ...info, records_written: 0, records_deleted: written.rowsDeleted });
  } finally {
    rmSync(file, { force: true });
    await instance.connection.run(`DROP TABLE IF EXISTS temp.main.${sqlIdentifier(staged)}`).catch(() => {});
  }
}

/** The stream's keys were compared now. */
export async function keysCompared(store: Store, connection: ConnectionRow, stream: StreamSelection, now: Date): Promise<void> {
  await store.run(markKeysCompared, { connection_id: connection.id, stream: stream.name, now: now.toISOString() });
}
