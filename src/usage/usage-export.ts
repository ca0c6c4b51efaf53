import type { Queryable } from '../store/store';
import { csvValue } from '../query/formats/csv-result';
import { usageRecordsPage, type UsageRecordRow } from './usage-queries';
import { instantsOf, monthPeriod, type DateBounds, type DayRange } from './usage-period';

export type ExportFormat = 'csv' | 'json';

/** One usage record as exported: the record's own fields, its kind under the name the reports use. */
export type ExportedUsageRecord = Omit<UsageRecordRow, 'source'> & { kind: string };

const exportColumns: (keyof ExportedUsageRecord)[] = [
  'id',
  'created_at',
  'kind',
  'status',
  'error_code',
  'user_id',
  'api_key_id',
  'job_id',
  'statement_hash',
  'bytes_scanned',
  'cpu_ms',
  'rows_returned',
  'duration_ms',
  'cost_eur',
];

export interface UsageExportStream {
  period: DayRange;
  contentType: string;
  fileName: string;
  /** The body, a page of records at a time; nothing is read before the first piece is asked for. */
  pieces: AsyncGenerator<string>;
}

/**
 * A period's individual usage records (a calendar month by default) as CSV with a header row or as a
 * JSON array, written as they are read, a page at a time in time order: a month of a busy workspace
 * streams in constant memory.
 */
export class UsageExport {
  constructor(
    private readonly db: Queryable,
    private readonly today: () => string,
    /** Writes the records of the queries answered so far that wait to be written (see UsageBatches). */
    private readonly recorded: () => Promise<void>,
    private readonly pageSize = 1_000,
  ) {}

  open(workspaceId: string, bounds: DateBounds, format: ExportFormat): UsageExportStream {
    const period = monthPeriod(bounds, this.today());
    const records = this.records(workspaceId, period);
    return {
      period,
      contentType: format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json',
      fileName: `usage-${period.first}-${period.last}.${format}`,
      pieces: format === 'csv' ? csvPieces(records) : jsonPieces(records),
    };
  }

  private async *records(workspaceId: string, period: DayRange): AsyncGenerator<ExportedUsageRecord[]> {
    const { from, through } = instantsOf(period);
    await this.recorded();
    let after = { at: from, id: '' };
    for (;;) {
      const rows = await this.db.all(usageRecordsPage, { workspace_id: workspaceId, through, after_at: after.at, after_id: after.id, limit: this.pageSize });
      if (rows.length > 0) yield rows.map(exported);
      if (rows.length < this.pageSize) return;
      const last = rows[rows.length - 1]!;
      after = { at: last.created_at, id: last.id };
    }
  }
}

function exported(row: UsageRecordRow): ExportedUsageRecord {
  return {
    id: row.id,
    created_at: row.created_at,
    kind: row.source,
    status: row.status,
    error_code: row.error_code,
    user_id: row.user_id,
    api_key_id: row.api_key_id,
    job_id: row.job_id,
    statement_hash: row.statement_hash,
    bytes_scanned: Number(row.bytes_scanned),
    cpu_ms: Number(row.cpu_ms),
    rows_returned: Number(row.rows_returned),
    duration_ms: Number(row.duration_ms),
    cost_eur: Number(row.cost_eur),
  };
}

async function* csvPieces(pages: AsyncGenerator<ExportedUsageRecord[]>): AsyncGenerator<string> {
  yield `${exportColumns.join(',')}\r\n`;
  for await (const page of pages) {
    yield page.map((record) => `${exportColumns.map((column) => csvValue(record[column] ?? null)).join(',')}\r\n`).join('');
  }
}

async function* jsonPieces(pages: AsyncGenerator<ExportedUsageRecord[]>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const page of pages) {
    yield `${first ? '' : ','}${page.map((record) => JSON.stringify(record)).join(',')}`;
    first = false;
  }
  yield ']';
}
