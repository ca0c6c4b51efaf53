import { AppError } from '../errors/app-error';
import type { StreamInfo } from '../connectors/connector';
import { SourceError } from '../connectors/source-error';
import { sourceTimeoutMs } from '../connectors/source-timeout';
import type { JsonValue } from '../engine/sql/encode-values';
import { scrubServerDetails } from '../engine/sql/map-duckdb-error';
import { duckdbErrorOf } from '../engine/duckdb/duckdb-error';
import { previewRows } from '../engine/sync/preview';
import { inferColumns } from '../engine/write/infer-schema';
import { RecordsRejected } from '../engine/write/write-errors';
import type { ConnectionRow } from './queries';
import type { SourceSessions } from './source-sessions';
import type { DiscoveredStreams } from './discovered-streams';

export interface TestResult {
  success: boolean;
  message: string;
  latency_ms: number;
}

export type StreamView = Omit<StreamInfo, 'unavailable'> & { status: 'available' | 'unavailable'; reason?: string };

export interface Preview {
  stream: string;
  columns: { name: string; type: string }[];
  rows: JsonValue[][];
  row_count: number;
}

/**
 * Asking a connection's source something without syncing: whether it answers, its streams, a stream's
 * first rows. Each answers within the connectors' timeout: a source slower than that is stopped and
 * the answer says so (the HTTP listener keeps the connection open that long; see src/api/server.ts).
 */
export class SourceProbes {
  constructor(
    private readonly sessions: SourceSessions,
    private readonly discovered: DiscoveredStreams,
    private readonly deadlineMs = sourceTimeoutMs,
  ) {}

  /** Always an answer: a source that fails says how (host unreachable, authentication, no such database, TLS, an address it may not reach…). */
  async test(row: ConnectionRow): Promise<TestResult> {
    const startedAt = performance.now();
    const latency = () => Math.round(performance.now() - startedAt);
    try {
      await this.sessions.use(row, (session) => session.connector.check(session.context), { deadlineMs: this.deadlineMs });
      return { success: true, message: 'Connected', latency_ms: latency() };
    } catch (error) {
      // An address the connection may not reach (named by the spec, a redirect, a link) is a failed test too.
      const refused = error instanceof AppError && error.code === 'SOURCE_NOT_ALLOWED';
      if (!refused && !(error instanceof SourceError) && !duckdbErrorOf(error)) throw error;
      return { success: false, message: refused ? error.message : messageOf(error), latency_ms: latency() };
    }
  }

  /** Every stream of the source; those the credentials cannot read are marked unavailable, with the reason. */
  async streams(row: ConnectionRow): Promise<StreamView[]> {
    const streams = await this.asRequestError(() => this.discovered.discover(row, this.deadlineMs));
    return streams.map(({ unavailable, ...stream }) => ({
      ...stream,
      status: unavailable === undefined ? 'available' : 'unavailable',
      ...(unavailable === undefined ? {} : { reason: unavailable }),
    }));
  }

  /** A stream's first rows, read as a full refresh would read them; nothing is written. */
  async preview(row: ConnectionRow, stream: string, limit: number): Promise<Preview> {
    return this.asRequestError(() =>
      this.sessions.use(
        row,
        async (session) => {
          const read = session.connector.read(session.context, {
            stream: { name: stream, syncMode: 'full_refresh_overwrite', primaryKey: [] },
            position: null,
            cursor: null,
            batchRows: limit,
          });
          try {
            for await (const batch of read) {
              if (batch.kind === 'relation') {
                const { columns, rows } = await previewRows(await session.context.engine(), batch.select, limit);
                return { stream, columns, rows, row_count: rows.length };
              }
              if (batch.records.length === 0) continue;
              const records = batch.records.slice(0, limit);
              const columns = inferColumns(records).map((column) => ({ name: column.name, type: column.type }));
              const rows = records.map((record) => columns.map((column) => (record[column.name] ?? null) as JsonValue));
              return { stream, columns, rows, row_count: rows.length };
            }
            return { stream, columns: [], rows: [], row_count: 0 };
          } finally {
            await read.return(undefined);
          }
        },
        { deadlineMs: this.deadlineMs },
      ),
    );
  }

  /** A source's failure in an answer: 404 for a stream it does not have, 400 SOURCE_ERROR otherwise. */
  private async asRequestError<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof SourceError) {
        throw new AppError(error.failure === 'not_found' ? 'NOT_FOUND' : 'SOURCE_ERROR', error.message, {
          hint: 'Test the connection, or correct its spec with PATCH.',
        });
      }
      // DuckDB's errors here are about what the source holds (a file that does not parse, a type it cannot read).
      if (duckdbErrorOf(error) || error instanceof RecordsRejected)
        throw new AppError('SOURCE_ERROR', messageOf(error), { hint: 'Test the connection, or correct its spec with PATCH.' });
      throw error;
    }
  }
}

function messageOf(error: unknown): string {
  if (error instanceof SourceError) return error.message;
  return scrubServerDetails(error instanceof Error ? error.message : String(error), []).replace(/^[A-Za-z ]+ Error: /, '');
}
