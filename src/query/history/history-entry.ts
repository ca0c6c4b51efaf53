import type { CallerType, UsageEntry } from '../usage-entry';
import type { HistoryValues } from './history-queries';

/** The SQL kept per entry, as Snowflake's query history keeps it: enough to read and rerun any real statement. */
export const maxHistorySqlChars = 100_000;

/** Who ran a statement: an API key, else a user, else (a public view or the service's own work) as the entry says. */
export function callerOf(entry: Pick<UsageEntry, 'userId' | 'apiKeyId' | 'callerType'>): { type: CallerType; id: string | null } {
  if (entry.callerType === 'public' || entry.callerType === 'system') return { type: entry.callerType, id: null };
  if (entry.apiKeyId) return { type: 'api_key', id: entry.apiKeyId };
  if (entry.userId) return { type: 'user', id: entry.userId };
  return { type: 'system', id: null };
}

/** A statement's history entry from its usage record; `endedAt` is when it was answered. */
export function historyEntryOf(entry: UsageEntry, endedAt: Date): HistoryValues {
  const durationMs = Math.max(0, Math.round(entry.durationMs));
  const caller = callerOf(entry);
  return {
    id: entry.jobId ?? Bun.randomUUIDv7(),
    workspace_id: entry.workspaceId,
    kind: entry.source,
    status: entry.status,
    error_code: entry.errorCode,
    sql: entry.sql.slice(0, maxHistorySqlChars),
    translated_sql: entry.translatedSql?.slice(0, maxHistorySqlChars) ?? null,
    caller_type: caller.type,
    caller_id: caller.id,
    started_at_ms: (entry.startedAt ?? new Date(endedAt.getTime() - durationMs)).getTime(),
    duration_ms: durationMs,
    rows_returned: entry.status === 'succeeded' ? entry.rowsReturned : null,
    bytes_scanned: entry.bytesScanned,
    cpu_ms: Math.round(entry.cpuMs),
    cost_eur: entry.costEur,
    estimated_bytes: entry.estimatedBytes ?? null,
    job_id: entry.source === 'job' ? (entry.jobId ?? null) : null,
  };
}
