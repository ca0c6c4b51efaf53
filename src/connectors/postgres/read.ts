import type { EngineConnection } from '../../engine/duckdb/engine-connection';
import { sqlString } from '../../engine/sql-literals';
import type { Batch, JsonValue, ReadRequest } from '../connector';
import { SourceError } from '../source-error';
import { pgIdentifier, pgLiteral, sourceAlias, sourceColumns, type SourceRelation } from './catalog';
import { rangeCondition, tableScan, wholeTableScan, type Position } from './table-scan';

/**
 * Reads a stream in batches ordered by one column: the cursor for incremental modes, else the first
 * column of the primary key, else the cursor field when one is chosen. Each batch ends at the value
 * the batch's N-th row has and takes every row with that value, so a batch boundary never splits rows
 * of one value and the next batch starts strictly after it (`> value`): a batch read again after a
 * crash is the same batch. The bound query runs on the source and uses its index on the column; it
 * also counts the batch, and a batch short of N rows is the last. A stream with no such column is
 * read in one batch. Values travel as DuckDB's text of them, which Postgres reads back as the
 * column's own type.
 *
 * How a batch's rows are read: a full refresh that overwrites may scan the table itself (see
 * tableScan), every other read runs one query on the source over the batch's range.
 */
export async function* readRelation(connection: EngineConnection, relation: SourceRelation, request: ReadRequest): AsyncGenerator<Batch> {
  const { stream } = request;
  const incremental = stream.syncMode === 'incremental_append' || stream.syncMode === 'incremental_append_deduped';
  const column = incremental ? stream.cursorField : (stream.primaryKey[0] ?? stream.cursorField);
  const table = `${pgIdentifier(relation.schema)}.${pgIdentifier(relation.table)}`;
  // A table Postgres never analysed has no size per row: a sample of its rows tells one.
  const bytesPerRow = relation.bytesPerRow || (await sampledBytesPerRow(connection, table));
  const expectedRows = relation.rowEstimate;
  if (incremental && !column) throw new SourceError('invalid', `Stream ${stream.name} needs a cursor field for ${stream.syncMode}`);
  if (!column) {
    // The one batch committed already (a resumed read): nothing is left.
    if ((request.position as Partial<Position> | null)?.done === true) return;
    const select = wholeTableScan(relation, request, await sourceColumns(connection, relation)) ?? sourceSelect(`SELECT * FROM ${table}`);
    yield { kind: 'relation', select, position: { after: null, nulls_done: true, done: true }, cursor: null, bytesPerRow, expectedRows, last: true };
    return;
  }
  const columns = await sourceColumns(connection, relation);
  const sourceColumn = columns.find((candidate) => candidate.name === column);
  if (!sourceColumn) throw new SourceError('invalid', `Stream ${stream.name} has no column ${column}`);
  const key = pgIdentifier(column);
  const literal = (value: string) => `${pgLiteral(value)}::${sourceColumn.sourceType}`;
  const scan = tableScan(relation, request, columns, sourceColumn);
  const limit = scan?.batchRows ?? Math.max(1, Math.trunc(request.batchRows));
  let position = startingPosition(request, incremental, sourceColumn.notNull);
  if (position.done) return;
  if (scan?.whole) {
    yield {
      kind: 'relation',
      select: scan.select(position, null),
      position: toJson({ after: position.after, nulls_done: true, done: true }),
      cursor: null,
      bytesPerRow,
      expectedRows,
      last: true,
    };
    return;
  }

  for (;;) {
    request.signal?.throwIfAborted();
    const after = position.after === null ? [] : [`${key} > ${literal(position.after)}`];
    const { bound, rows } = await boundOf(
      connection,
      `SELECT max(${key}) AS bound, count(*) AS rows FROM (SELECT ${key} FROM ${table} WHERE ${[`${key} IS NOT NULL`, ...after].join(' AND ')} ORDER BY ${key} LIMIT ${limit}) AS batch`,
    );
    if (bound === null) {
      // Past the last value: what is left are the NULLs of a first read, if any.
      if (!position.nulls_done) {
        const next: Position = { after: position.after, nulls_done: true };
        yield {
          kind: 'relation',
          select: sourceSelect(`SELECT * FROM ${table} WHERE ${key} IS NULL`),
          position: toJson(next),
          cursor: incremental ? position.after : null,
          bytesPerRow,
        };
      }
      return;
    }
    const select = scan ? scan.select(position, bound) : sourceSelect(`SELECT * FROM ${table} WHERE ${rangeCondition(key, literal, position, bound)}`);
    position = { after: bound, nulls_done: true };
    yield { kind: 'relation', select, position: toJson(position), cursor: incremental ? bound : null, bytesPerRow, expectedRows: rows };
    // Short of a full batch: the source had no rows past this one when it was bounded.
    if (rows < limit) return;
  }
}

/** Average bytes of a row in a sample of the table (pg_column_size of whole rows); 0 for an empty table. */
async function sampledBytesPerRow(connection: EngineConnection, table: string): Promise<number> {
  const rows = await connection.read(
    `SELECT b FROM postgres_query(${sqlString(sourceAlias)}, ${sqlString(`SELECT coalesce(avg(pg_column_size(t.*)), 0)::float8 AS b FROM (SELECT * FROM ${table} LIMIT 1000) AS t`)})`,
  );
  return Number(rows.scalar() ?? 0);
}

function startingPosition(request: ReadRequest, incremental: boolean, notNull: boolean): Position {
  const resumed = request.position as Partial<Position> | null;
  if (resumed && typeof resumed === 'object')
    return { after: typeof resumed.after === 'string' ? resumed.after : null, nulls_done: resumed.nulls_done !== false, done: resumed.done === true };
  if (incremental && typeof request.cursor === 'string') return { after: request.cursor, nulls_done: true };
  // A first read takes the rows whose column is NULL too (with the first batch).
  return { after: null, nulls_done: notNull };
}

/** A SELECT of the source's rows, run by the source (DuckDB's postgres_query). */
function sourceSelect(query: string): string {
  return `SELECT * FROM postgres_query(${sqlString(sourceAlias)}, ${sqlString(query)})`;
}

async function boundOf(connection: EngineConnection, query: string): Promise<{ bound: string | null; rows: number }> {
  const rows = await connection.read(`SELECT CAST(bound AS VARCHAR), rows FROM postgres_query(${sqlString(sourceAlias)}, ${sqlString(query)})`);
  const [bound, count] = rows.getRows()[0] ?? [];
  return { bound: bound === null || bound === undefined ? null : String(bound), rows: Number(count ?? 0) };
}

function toJson(position: Position): JsonValue {
  return { after: position.after, nulls_done: position.nulls_done, ...(position.done ? { done: true } : {}) };
}
