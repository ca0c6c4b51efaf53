import { createHash } from 'node:crypto';
import { namedQuery } from '../store/named-query';
import type { Queryable, Store } from '../store/store';
import type { Clock } from '../util/clock';
import { addToDailyUsage, type DailyUsageAddition, type UsageRecordRow } from '../usage/usage-queries';
import { historyEntryOf } from './history/history-entry';
import { upsertHistoryEntry } from './history/history-queries';
import type { UsageEntry } from './usage-entry';

const insertUsage = namedQuery<Omit<UsageRecordRow, 'created_at'> & { workspace_id: string; now: string }>(
  'query_usage.insert',
  `INSERT INTO query_usage (id, workspace_id, user_id, api_key_id, source, status, error_code, statement_hash, bytes_scanned, cpu_ms, rows_returned, duration_ms, cost_eur, job_id, created_at)
   VALUES (:id, :workspace_id, :user_id, :api_key_id, :source, :status, :error_code, :statement_hash, :bytes_scanned, :cpu_ms, :rows_returned, :duration_ms, :cost_eur, :job_id, :now)
   ON CONFLICT DO NOTHING`,
);

export const deleteWorkspaceUsage = namedQuery<{ workspace_id: string }>(
  'query_usage.delete_for_workspace',
  'DELETE FROM query_usage WHERE workspace_id = :workspace_id',
);

/** The SQL's identity for usage records: a digest of its text, whitespace runs collapsed. */
export function statementHash(sql: string): string {
  return createHash('sha256').update(sql.trim().replace(/\s+/g, ' ')).digest('hex');
}

/**
 * One usage record per counted query: the data the usage and billing endpoints read. The record and
 * its day's roll-up (`usage_daily`) change in one transaction, so the reports, which read the roll-ups,
 * always add up to the records.
 */
export class UsageRecorder {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /** `db` is the caller's transaction when the record must land together with another write (a job's outcome). */
  async record(entry: UsageEntry, db?: Queryable): Promise<void> {
    if (db) return this.recordAll([entry], db);
    await this.store.transaction((tx) => this.recordAll([entry], tx));
  }

  /**
   * Records in the caller's transaction, then what they add to each day's roll-up, once per row and in
   * the rows' key order: two batches written side by side (by two replicas) take the roll-up rows in
   * the same order, so neither can wait for a row the other holds while holding one it wants, which
   * Postgres reported as deadlocks when each batch went in the order its queries were answered.
   */
  async recordAll(entries: readonly UsageEntry[], db: Queryable): Promise<void> {
    const rollups = new Map<string, DailyUsageAddition>();
    for (const entry of entries) {
      const recordedAt = entry.recordedAt ?? this.clock.now();
      const now = recordedAt.toISOString();
      const durationMs = Math.round(entry.durationMs);
      await db.run(upsertHistoryEntry, historyEntryOf(entry, recordedAt));
      const inserted = await db.run(insertUsage, {
        id: Bun.randomUUIDv7(),
        workspace_id: entry.workspaceId,
        user_id: entry.userId,
        api_key_id: entry.apiKeyId,
        source: entry.source,
        status: entry.status,
        error_code: entry.errorCode,
        statement_hash: statementHash(entry.sql),
        bytes_scanned: entry.bytesScanned,
        cpu_ms: entry.cpuMs,
        rows_returned: entry.rowsReturned,
        duration_ms: durationMs,
        cost_eur: entry.costEur,
        job_id: entry.jobId ?? null,
        now,
      });
      // A job's record that a retried activity writes again is not inserted, and must not count twice.
      if (inserted === 0) continue;
      const day = now.slice(0, 10);
      const key = JSON.stringify([entry.workspaceId, day, entry.source]);
      const rollup = rollups.get(key) ?? {
        workspace_id: entry.workspaceId,
        day,
        source: entry.source,
        queries: 0,
        failed: 0,
        bytes_scanned: 0,
        cpu_ms: 0,
        rows_returned: 0,
        duration_ms: 0,
        cost_eur: 0,
      };
      rollup.queries += 1;
      rollup.failed += entry.status === 'failed' ? 1 : 0;
      rollup.bytes_scanned += entry.bytesScanned;
      rollup.cpu_ms += entry.cpuMs;
      rollup.rows_returned += entry.rowsReturned;
      rollup.duration_ms += durationMs;
      rollup.cost_eur += entry.costEur;
      rollups.set(key, rollup);
    }
    for (const key of [...rollups.keys()].sort()) await db.run(addToDailyUsage, rollups.get(key)!);
  }
}
