import duckdb from '@duckdb/node-bindings';
import { DuckDBDataChunk, DuckDBTypeId } from '@duckdb/node-api';
import type { EngineConnection } from '../duckdb/engine-connection';
import { sqlIdentifier } from '../sql-literals';
import type { RecordColumn, StagedValue } from './record-columns';

/** DuckDB's vector size: the most rows one data chunk holds. */
const chunkRows = 2048;
/**
 * The appender's flush writes into the table on the calling thread, the event loop's: flushing every
 * this many chunks (32,768 rows, a few milliseconds into a temp table) and letting the loop run in
 * between keeps one large write from holding it.
 */
const chunksPerFlush = 16;
/** DuckDB keeps a text of at most 12 bytes inside its 16-byte entry, after its 4-byte length. */
const inlinedBytes = 12;
const entryBytes = 16;

/**
 * Creates a connection-local temp table of the columns' staged types and appends their values to it
 * through DuckDB's appender, a data chunk at a time: typed values handed over directly, not text for
 * DuckDB to parse again.
 */
export async function appendColumns(connection: EngineConnection, table: string, columns: RecordColumn[], rowCount: number): Promise<void> {
  await connection.run(`CREATE TEMP TABLE ${sqlIdentifier(table)} (${columns.map((column) => `${column.name} ${column.stagedType.toString()}`).join(', ')})`);
  const appender = await connection.createAppender(table, 'main', 'temp');
  try {
    const types = columns.map((column) => column.stagedType);
    for (let start = 0, chunks = 0; start < rowCount; start += chunkRows) {
      const size = Math.min(chunkRows, rowCount - start);
      const chunk = DuckDBDataChunk.create(types, size);
      columns.forEach((column, index) => fillVector(duckdb.data_chunk_get_vector(chunk.chunk, index), column, start, size));
      appender.appendDataChunk(chunk);
      if (++chunks % chunksPerFlush === 0) {
        appender.flushSync();
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
}

/**
 * Writes rows `start` to `start + size` of the column into the chunk's vector: the values are laid
 * out in a buffer of the vector's own format and copied over in one call, where the node-api's
 * vectors take a call per text. Texts longer than DuckDB keeps inline still go one call each.
 */
function fillVector(vector: duckdb.Vector, column: RecordColumn, start: number, size: number): void {
  const { values } = column;
  const typeId = column.stagedType.typeId;
  const nulls: number[] = [];
  let longTexts: number[] = [];
  let buffer: ArrayBuffer;
  if (typeId === DuckDBTypeId.DOUBLE) {
    const items = new Float64Array(size);
    for (let row = 0; row < size; row++) {
      const value = values[start + row];
      if (value === null) nulls.push(row);
      else items[row] = value as number;
    }
    buffer = items.buffer;
  } else if (typeId === DuckDBTypeId.BOOLEAN) {
    const items = new Uint8Array(size);
    for (let row = 0; row < size; row++) {
      const value = values[start + row];
      if (value === null) nulls.push(row);
      else items[row] = value ? 1 : 0;
    }
    buffer = items.buffer;
  } else {
    ({ buffer, longTexts } = inlineTexts(values, start, size, nulls));
  }
  duckdb.copy_data_to_vector(vector, 0, buffer, 0, buffer.byteLength);
  for (const row of longTexts) duckdb.vector_assign_string_element(vector, row, values[start + row] as string);
  if (nulls.length > 0) markNulls(vector, nulls, size);
}

/** Entries of DuckDB's string format for the short ASCII texts; the rows of the others, to assign one by one. */
function inlineTexts(values: StagedValue[], start: number, size: number, nulls: number[]): { buffer: ArrayBuffer; longTexts: number[] } {
  // Zero-filled: DuckDB compares inlined texts over all 16 bytes, padding included.
  const bytes = new Uint8Array(size * entryBytes);
  const view = new DataView(bytes.buffer);
  const longTexts: number[] = [];
  for (let row = 0; row < size; row++) {
    const value = values[start + row];
    if (value === null) {
      nulls.push(row);
      continue;
    }
    const text = value as string;
    if (text.length > inlinedBytes || !writeAscii(bytes, row * entryBytes + 4, text)) {
      longTexts.push(row);
      continue;
    }
    view.setUint32(row * entryBytes, text.length, true);
  }
  return { buffer: bytes.buffer, longTexts };
}

/** Writes the text's characters as bytes when all are ASCII (then one byte each in UTF-8). */
function writeAscii(bytes: Uint8Array, offset: number, text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) {
      bytes.fill(0, offset, offset + i);
      return false;
    }
    bytes[offset + i] = code;
  }
  return true;
}

/** Clears the validity bits of the null rows (one bit per row, least significant first). */
function markNulls(vector: duckdb.Vector, nulls: number[], size: number): void {
  const validity = new Uint8Array(Math.ceil(size / 64) * 8).fill(0xff);
  for (const row of nulls) validity[row >> 3]! &= ~(1 << (row & 7));
  duckdb.vector_ensure_validity_writable(vector);
  duckdb.copy_data_to_vector_validity(vector, 0, validity.buffer, 0, validity.byteLength);
}
