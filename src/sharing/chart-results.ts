import { createHash } from 'node:crypto';
import { AppError } from '../errors/app-error';
import type { JsonValue } from '../engine/sql/encode-values';
import type { QueryColumn } from '../engine/sql/query-runner';
import { RowCollector } from '../engine/sql/result-sink';
import type { QueryGate, ResultCaps } from '../query/query-gate';
import type { Logger } from '../logging/logger';
import type { Clock } from '../util/clock';
import type { SnapshotReads } from './snapshot-reads';
import type { BoundQuery } from './saved-queries-service';

/** A chart's data as of one snapshot of its workspace's lake. */
export interface ChartResult {
  columns: QueryColumn[];
  rows: JsonValue[][];
  /** When the query ran: the "data as of" time public pages show. */
  refreshedAt: string;
  snapshot: number;
}

/**
 * A chart is drawn from all of its rows at once, in memory and in the viewer's browser: 10,000 rows or
 * 8 MB is more than any chart can show legibly, and keeps a crowd of cached charts within memory.
 */
export const chartResultCaps: ResultCaps = { maxResultRows: 10_000, maxResultBytes: 8 * 1024 * 1024 };

/** Errors after which a view is better served the last result it had than nothing. */
const busyCodes = new Set(['RATE_LIMITED', 'CONCURRENCY_LIMITED', 'ENGINE_BUSY', 'QUERY_TIMEOUT']);

/**
 * Public charts' data, run once per snapshot of the workspace's lake: a view first reads the catalog's
 * current snapshot (cheap, and shared by the views that arrive meanwhile), and only a snapshot not
 * seen before runs the query, once however many views wait for it, through the query gate (counted
 * against the workspace's rate limit, usage kind `chart`). A new write is a new snapshot, so new data
 * shows on the next view. Results are kept in memory, the least recently used dropped first; when the
 * workspace is over its limits the last result is shown rather than an error.
 */
export class ChartResults {
  private readonly entries = new Map<string, Promise<ChartResult>>();
  /** Per chart query: its newest result, whatever its snapshot. */
  private readonly latest = new Map<string, ChartResult>();

  constructor(
    private readonly gate: QueryGate,
    private readonly snapshots: SnapshotReads,
    private readonly clock: Clock,
    private readonly capacity: number,
    private readonly logger: Logger,
  ) {}

  async result(workspaceId: string, chartId: string, query: BoundQuery): Promise<ChartResult> {
    const identity = `${workspaceId}:${chartId}:${digestOf(query)}`;
    const snapshot = await this.snapshots.current(workspaceId);
    const key = `${identity}@${snapshot}`;
    let entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
    } else {
      entry = this.run(workspaceId, query, snapshot).then((result) => {
        remember(this.latest, identity, result, this.capacity);
        return result;
      });
      entry.catch(() => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      });
    }
    remember(this.entries, key, entry, this.capacity);
    try {
      return await entry;
    } catch (error) {
      const stale = this.latest.get(identity);
      if (stale && error instanceof AppError && busyCodes.has(error.code)) return stale;
      throw error;
    }
  }

  private async run(workspaceId: string, query: BoundQuery, snapshot: number): Promise<ChartResult> {
    const collector = new RowCollector();
    const caller = { userId: null, apiKeyId: null, kind: 'chart' as const };
    try {
      await this.gate.run(caller, { workspaceId, sql: query.sql, force: false, parameters: query.parameters }, collector, { caps: chartResultCaps });
    } catch (error) {
      this.logger.warn('a public chart could not be loaded', { workspace_id: workspaceId, code: error instanceof AppError ? error.code : 'INTERNAL_ERROR' });
      throw error;
    }
    return { columns: collector.columnList, rows: collector.collected, refreshedAt: this.clock.now().toISOString(), snapshot };
  }
}

function remember<T>(map: Map<string, T>, key: string, value: T, capacity: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > capacity) map.delete(map.keys().next().value!);
}

function digestOf(query: BoundQuery): string {
  const values = JSON.stringify(Object.entries(query.parameters).sort(([a], [b]) => a.localeCompare(b)), (_, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value));
  return createHash('sha256').update(query.sql).update('\0').update(values).digest('hex');
}
