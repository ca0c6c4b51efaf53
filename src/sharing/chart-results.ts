import { createHash } from 'node:crypto';
import { setBounded } from '../util/bounded-map';
import { AppError } from '../errors/app-error';
import type { JsonValue } from '../engine/sql/encode-values';
import type { QueryColumn } from '../engine/sql/query-runner';
import type { LakeTableRef } from '../engine/sql/check-query';
import { RowCollector } from '../engine/sql/result-sink';
import type { QueryGate, ResultCaps } from '../query/query-gate';
import type { Logger } from '../logging/logger';
import type { Clock } from '../util/clock';
import type { SharedReads } from './shared-reads';
import type { BoundQuery } from './saved-queries-service';

/** A chart's data, as the query returned it. */
export interface ChartResult {
  columns: QueryColumn[];
  rows: JsonValue[][];
  /** When the query ran: the "data as of" time public pages show. */
  refreshedAt: string;
}

/** A result and what it holds for: the tables it read, and their version (see tablesVersion) as of a snapshot. */
interface Kept {
  result: ChartResult;
  tables: readonly LakeTableRef[];
  version: number;
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
 * Public charts' data, run once per snapshot of the tables they read: a view first reads the catalog's
 * current snapshot (cheap, and shared by the views that arrive together or meanwhile); views of a snapshot seen
 * before share its result. At a new snapshot, the tables the last result read are checked (one catalog
 * read per table): when none of them changed, the result carries over without running anything (a
 * write to another table of the workspace costs no query); otherwise the query runs, once however many
 * views wait for it, through the query gate (counted against the workspace's rate limit, usage kind
 * `chart`). So new data shows on the next view. Results are kept in memory, the least recently used
 * dropped first; when the workspace is over its limits the last result is shown rather than an error.
 */
export class ChartResults {
  private readonly entries = new Map<string, Promise<Kept>>();
  /** Per chart query: its newest result, whatever its snapshot. */
  private readonly latest = new Map<string, Kept>();

  constructor(
    private readonly gate: QueryGate,
    private readonly snapshots: SharedReads<number>,
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
      entry = this.load(workspaceId, identity, query, snapshot);
      entry.catch(() => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      });
    }
    // A dropped load is still awaited by whoever asked for it, and its failure is handled above.
    void setBounded(this.entries, key, entry, this.capacity);
    try {
      return (await entry).result;
    } catch (error) {
      const stale = this.latest.get(identity);
      if (stale && error instanceof AppError && busyCodes.has(error.code)) return stale.result;
      throw error;
    }
  }

  /** The last result when its tables are unchanged as of the snapshot, else a new run. */
  private async load(workspaceId: string, identity: string, query: BoundQuery, snapshot: number): Promise<Kept> {
    const last = this.latest.get(identity);
    if (last && last.snapshot < snapshot && (await this.gate.tablesVersion(workspaceId, last.tables, snapshot)) === last.version) {
      const kept = { ...last, snapshot };
      setBounded(this.latest, identity, kept, this.capacity);
      return kept;
    }
    const { result, tables } = await this.run(workspaceId, query);
    // The version as of the snapshot read before the run: a write in between makes the result newer
    // than its version says, so the next view runs again rather than keep a result too long.
    const kept = { result, tables, version: await this.gate.tablesVersion(workspaceId, tables, snapshot), snapshot };
    setBounded(this.latest, identity, kept, this.capacity);
    return kept;
  }

  private async run(workspaceId: string, query: BoundQuery): Promise<{ result: ChartResult; tables: readonly LakeTableRef[] }> {
    const collector = new RowCollector();
    const caller = { userId: null, apiKeyId: null, kind: 'chart' as const, type: 'public' as const };
    let tables: readonly LakeTableRef[];
    try {
      ({
        outcome: { tables },
      } = await this.gate.run(caller, { workspaceId, sql: query.sql, force: false, parameters: query.parameters }, collector, { caps: chartResultCaps }));
    } catch (error) {
      this.logger.warn('a public chart could not be loaded', { workspace_id: workspaceId, code: error instanceof AppError ? error.code : 'INTERNAL_ERROR' });
      throw error;
    }
    return { result: { columns: collector.columnList, rows: collector.collected, refreshedAt: this.clock.now().toISOString() }, tables };
  }
}

/** Digests by the bound query they were made of: a caller that keeps its bound query has it made once. */
const digests = new WeakMap<BoundQuery, string>();

function digestOf(query: BoundQuery): string {
  let digest = digests.get(query);
  if (digest === undefined) {
    digest = digestOfText(query);
    digests.set(query, digest);
  }
  return digest;
}

function digestOfText(query: BoundQuery): string {
  const values = JSON.stringify(
    Object.entries(query.parameters).sort(([a], [b]) => a.localeCompare(b)),
    (_, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value),
  );
  return createHash('sha256').update(query.sql).update('\0').update(values).digest('hex');
}
