import type { EngineConnection } from '../../engine/duckdb/engine-connection';
import { sqlString } from '../../engine/sql-literals';
import type { Batch, JsonValue, ReadRequest } from '../connector';
import { SourceError } from '../source-error';
import { pgIdentifier, pgLiteral, sourceAlias, sourceColumns, type SourceRelation } from './catalog';

/** Where a read of a stream stands: past which value of its batching column, and whether its NULLs were read. */
interface Position {
  after: string | null;
  nulls_done: boolean;
}

/**
 * Reads a stream in batches ordered by one column: the cursor for incremental modes, else the first
 * column of the primary key, else the cursor field when one is chosen. Each batch ends at the value
 * the batch's N-th row has and takes every row with that value, so a batch boundary never splits rows
 * of one value and the next batch starts strictly after it (`> value`): a batch read again after a
 * crash is the same batch. Both queries run on the source and use its index on the column. A stream
 * with no such column is read in one batch. Values travel as DuckDB's text of them, which Postgres
 * reads back as the column's own type.
 */
export async function* readRelation(connection: EngineConnection, relation: SourceRelation, request: ReadRequest): AsyncGenerator<Batch> {
  const { stream } = request;
  const incremental = stream.syncMode === 'incremental_append' || stream.syncMode === 'incremental_append_deduped';
  const column = incremental ? stream.cursorField : (stream.primaryKey[0] ?? stream.cursorField);
  const table = `${pgIdentifier(relation.schema)}.${pgIdentifier(relation.table)}`;
  const bytesPerRow = relation.bytesPerRow;
  if (incremental && !column) throw new SourceError('invalid', `Stream ${stream.name} needs a cursor field for ${stream.syncMode}`);
  if (!column) {
    yield { kind: 'relation', select: sourceSelect(`SELECT * FROM ${table}`), position: { after: null, nulls_done: true, done: true }, cursor: null, bytesPerRow };
    return;
  }
  const sourceColumn = (await sourceColumns(connection, relation)).find((candidate) => candidate.name === column);
  if (!sourceColumn) throw new SourceError('invalid', `Stream ${stream.name} has no column ${column}`);
  const key = pgIdentifier(column);
  const literal = (value: string) => `${pgLiteral(value)}::${sourceColumn.sourceType}`;
  let position = startingPosition(request, incremental, sourceColumn.notNull);

  for (;;) {
    request.signal?.throwIfAborted();
    const after = position.after === null ? [] : [`${key} > ${literal(position.after)}`];
    const bound = await boundOf(connection, `SELECT max(${key}) AS bound FROM (SELECT ${key} FROM ${table} WHERE ${[`${key} IS NOT NULL`, ...after].join(' AND ')} ORDER BY ${key} LIMIT ${Math.trunc(request.batchRows)}) AS batch`);
    if (bound === null) {
      // Past the last value: what is left are the NULLs of a first read, if any.
      if (!position.nulls_done) {
        const next: Position = { after: position.after, nulls_done: true };
        yield { kind: 'relation', select: sourceSelect(`SELECT * FROM ${table} WHERE ${key} IS NULL`), position: toJson(next), cursor: incremental ? position.after : null, bytesPerRow };
      }
      return;
    }
    const upTo = `${key} <= ${literal(bound)}`;
    const where = position.nulls_done ? [...after, upTo].join(' AND ') : `(${key} IS NULL OR ${upTo})`;
    position = { after: bound, nulls_done: true };
    yield { kind: 'relation', select: sourceSelect(`SELECT * FROM ${table} WHERE ${where}`), position: toJson(position), cursor: incremental ? bound : null, bytesPerRow };
  }
}

function startingPosition(request: ReadRequest, incremental: boolean, notNull: boolean): Position {
  const resumed = request.position as Partial<Position> | null;
  if (resumed && typeof resumed === 'object') return { after: typeof resumed.after === 'string' ? resumed.after : null, nulls_done: resumed.nulls_done !== false };
  if (incremental && typeof request.cursor === 'string') return { after: request.cursor, nulls_done: true };
  // A first read takes the rows whose column is NULL too (with the first batch).
  return { after: null, nulls_done: notNull };
}

/** A SELECT of the source's rows, run by the source (DuckDB's postgres_query). */
function sourceSelect(query: string): string {
  return `SELECT * FROM postgres_query(${sqlString(sourceAlias)}, ${sqlString(query)})`;
}

async function boundOf(connection: EngineConnection, query: string): Promise<string | null> {
  const rows = await connection.read(`SELECT CAST(bound AS VARCHAR) FROM postgres_query(${sqlString(sourceAlias)}, ${sqlString(query)})`);
  const value = rows.scalar();
  return value === null || value === undefined ? null : String(value);
}

function toJson(position: Position): JsonValue {
  return { after: position.after, nulls_done: position.nulls_done };
}
