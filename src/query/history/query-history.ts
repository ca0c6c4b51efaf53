import type { Store } from '../../store/store';
import type { CallerType, UsageSource } from '../usage-entry';
import { countHistory, listHistory, type HistoryFilter, type HistoryRow, type HistoryStatus } from './history-queries';

export interface HistoryEntry {
  query_id: string;
  kind: UsageSource;
  status: HistoryStatus;
  error_code?: string;
  sql: string;
  translated_sql?: string;
  caller: { type: CallerType; id?: string };
  started_at: string;
  duration_ms: number;
  rows?: number;
  bytes_scanned: number;
  cpu_ms: number;
  cost_eur: number;
  estimated_bytes?: number;
  job_id?: string;
}

export interface HistoryQuery {
  kind?: UsageSource;
  status?: HistoryStatus;
  callerId?: string;
  since?: Date;
  until?: Date;
  limit: number;
  offset: number;
}

/**
 * A workspace's query history, most recent first: every statement it ran, as the usage recorder
 * wrote it (see historyEntryOf). Statements answered in this process a moment ago are written first.
 */
export class QueryHistory {
  constructor(
    private readonly store: Store,
    private readonly written: () => Promise<void>,
  ) {}

  async list(workspaceId: string, query: HistoryQuery): Promise<{ entries: HistoryEntry[]; total: number }> {
    await this.written();
    const filter: HistoryFilter = {
      workspace_id: workspaceId,
      kind: query.kind ?? null,
      status: query.status ?? null,
      caller_id: query.callerId ?? null,
      since_ms: query.since?.getTime() ?? null,
      until_ms: query.until?.getTime() ?? null,
    };
    const [rows, count] = await Promise.all([
      this.store.all(listHistory, { ...filter, limit: query.limit, offset: query.offset }),
      this.store.first(countHistory, filter),
    ]);
    return { entries: rows.map(entryOf), total: Number(count?.total ?? 0) };
  }
}

function entryOf(row: HistoryRow): HistoryEntry {
  const optional = (value: number | string | null) => (value === null ? undefined : Number(value));
  return {
    query_id: row.id,
    kind: row.kind,
    status: row.status,
    ...(row.error_code ? { error_code: row.error_code } : {}),
    sql: row.sql,
    ...(row.translated_sql ? { translated_sql: row.translated_sql } : {}),
    caller: { type: row.caller_type, ...(row.caller_id ? { id: row.caller_id } : {}) },
    started_at: new Date(Number(row.started_at_ms)).toISOString(),
    duration_ms: Number(row.duration_ms),
    ...(row.rows_returned === null ? {} : { rows: optional(row.rows_returned) }),
    bytes_scanned: Number(row.bytes_scanned),
    cpu_ms: Number(row.cpu_ms),
    cost_eur: row.cost_eur,
    ...(row.estimated_bytes === null ? {} : { estimated_bytes: optional(row.estimated_bytes) }),
    ...(row.job_id ? { job_id: row.job_id } : {}),
  };
}
