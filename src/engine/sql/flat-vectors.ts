import duckdb from '@duckdb/node-bindings';
import { DuckDBTypeId, type DuckDBDataChunk } from '@duckdb/node-api';
import { CString, ptr, type Pointer } from 'bun:ffi';
import { rowIsValid } from '../duckdb/validity-bits';
import { dateText, timestampText } from './temporal-text';
import { decimalJson, floatJson, integerJson, realJson } from './json-numbers';

/** DuckDB keeps a text as 16 bytes: its length, then the text itself when it fits in 12 bytes, else a prefix and a pointer. */
const textEntryBytes = 16;
const inlineTextBytes = 12;
const twoTo32 = 2 ** 32;
/** A 64-bit integer whose upper half lies strictly within ±2^21 is within ±2^53 and a double exactly. */
const safeHighWord = 2 ** 21;

/** Where a column's values go: `rows[row][column]`, NULL where the validity bits say so. */
interface Target {
  rows: unknown[][];
  column: number;
  rowCount: number;
  validity: Uint8Array | null | undefined;
}

/**
 * Writes one column of a result's chunk into its rows straight from DuckDB's memory, for the types
 * results mostly hold: texts, integers, floating point, decimals of up to 18 digits, booleans, dates
 * and timestamps. The bindings' vectors make a value object of every item, test validity with BigInt
 * arithmetic and copy each text longer than 12 bytes into a buffer of its own before decoding it: an
 * 18,000-row result of two texts and two integers took 12 ms to read that way. Each type has its own
 * loop, so the runtime compiles each for the one type it reads. The values are the ones
 * encode-values' converters give. For any other type nothing is written and the answer is false, to
 * be read through the bindings. A chunk of a result is flat (DuckDB's C API hands out no dictionary or
 * constant vectors), and the chunk keeps its memory alive while it is read.
 */
export function readFlatColumn(chunk: DuckDBDataChunk, column: number, rows: unknown[][]): boolean {
  const rowCount = chunk.rowCount;
  // Nothing to read: no call into DuckDB, and no pointer taken into an empty array.
  if (rowCount === 0) return true;
  const vector = duckdb.data_chunk_get_vector(chunk.chunk, column);
  const logicalType = duckdb.vector_get_column_type(vector);
  const target: Target = { rows, column, rowCount, validity: duckdb.vector_get_validity(vector, Math.ceil(rowCount / 64) * 8) };
  const data = (bytesPerRow: number) => duckdb.vector_get_data(vector, rowCount * bytesPerRow);
  const typeId = duckdb.get_type_id(logicalType) as number as DuckDBTypeId;
  const numbers = numberArrays[typeId];
  if (numbers) {
    fillNumbers(target, view(numbers, data(numbers.BYTES_PER_ELEMENT), rowCount));
    return true;
  }
  switch (typeId) {
    case DuckDBTypeId.VARCHAR:
      fillTexts(target, data(textEntryBytes));
      return true;
    case DuckDBTypeId.BOOLEAN:
      fillBooleans(target, data(1));
      return true;
    case DuckDBTypeId.BIGINT:
      fillIntegers(target, data(8));
      return true;
    case DuckDBTypeId.UBIGINT:
      fillUnsignedIntegers(target, data(8));
      return true;
    case DuckDBTypeId.FLOAT:
      fillFloats(target, view(Float32Array, data(4), rowCount), realJson);
      return true;
    case DuckDBTypeId.DOUBLE:
      fillFloats(target, view(Float64Array, data(8), rowCount), floatJson);
      return true;
    case DuckDBTypeId.DECIMAL:
      return fillDecimals(target, data, duckdb.decimal_width(logicalType), duckdb.decimal_scale(logicalType));
    case DuckDBTypeId.DATE:
      fillDates(target, view(Int32Array, data(4), rowCount));
      return true;
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_TZ:
      fillTimestamps(target, data(8), typeId === DuckDBTypeId.TIMESTAMP_TZ);
      return true;
    default:
      return false;
  }
}

/** The integer types JSON holds exactly, as the typed arrays that read them. */
const numberArrays: Partial<Record<DuckDBTypeId, TypedArrayOf<ArrayLike<number>>>> = {
  [DuckDBTypeId.TINYINT]: Int8Array,
  [DuckDBTypeId.UTINYINT]: Uint8Array,
  [DuckDBTypeId.SMALLINT]: Int16Array,
  [DuckDBTypeId.USMALLINT]: Uint16Array,
  [DuckDBTypeId.INTEGER]: Int32Array,
  [DuckDBTypeId.UINTEGER]: Uint32Array,
};

/**
 * Texts are decoded from UTF-8 by the runtime straight out of DuckDB's memory, the short ones inside
 * their entry and the long ones where the entry points: one call and no copy per text. The validity
 * is tested first: a NULL's entry holds no valid pointer.
 */
function fillTexts({ rows, column, rowCount, validity }: Target, entries: Uint8Array): void {
  const words = view(Uint32Array, entries, rowCount * 4);
  const base = ptr(entries);
  for (let row = 0; row < rowCount; row++) {
    const at = row * 4;
    const length = words[at]!;
    let text: string | null;
    if (!rowIsValid(validity, row)) text = null;
    // A CString of length 0 would read up to the next NUL instead.
    else if (length === 0) text = '';
    else if (length <= inlineTextBytes) text = new CString(base, row * textEntryBytes + 4, length).toString();
    else text = new CString((words[at + 2]! + words[at + 3]! * twoTo32) as Pointer, 0, length).toString();
    rows[row]![column] = text;
  }
}

function fillBooleans({ rows, column, rowCount, validity }: Target, bytes: Uint8Array): void {
  for (let row = 0; row < rowCount; row++) rows[row]![column] = rowIsValid(validity, row) ? bytes[row] !== 0 : null;
}

function fillNumbers({ rows, column, rowCount, validity }: Target, values: ArrayLike<number>): void {
  for (let row = 0; row < rowCount; row++) rows[row]![column] = rowIsValid(validity, row) ? values[row]! : null;
}

function fillFloats({ rows, column, rowCount, validity }: Target, values: Float32Array | Float64Array, json: (value: number) => number | string): void {
  for (let row = 0; row < rowCount; row++) rows[row]![column] = rowIsValid(validity, row) ? json(values[row]!) : null;
}

function fillDates({ rows, column, rowCount, validity }: Target, days: Int32Array): void {
  for (let row = 0; row < rowCount; row++) rows[row]![column] = rowIsValid(validity, row) ? dateText(days[row]!) : null;
}

function fillIntegers({ rows, column, rowCount, validity }: Target, bytes: Uint8Array): void {
  const read = signed64(bytes, rowCount);
  for (let row = 0; row < rowCount; row++) rows[row]![column] = rowIsValid(validity, row) ? integerJson(read(row)) : null;
}

function fillUnsignedIntegers({ rows, column, rowCount, validity }: Target, bytes: Uint8Array): void {
  const words = view(Uint32Array, bytes, rowCount * 2);
  const bigs = view(BigUint64Array, bytes, rowCount);
  for (let row = 0; row < rowCount; row++) {
    const high = words[2 * row + 1]!;
    if (!rowIsValid(validity, row)) rows[row]![column] = null;
    else rows[row]![column] = high < safeHighWord ? high * twoTo32 + words[2 * row]! : integerJson(bigs[row]!);
  }
}

function fillTimestamps({ rows, column, rowCount, validity }: Target, bytes: Uint8Array, zoned: boolean): void {
  const read = signed64(bytes, rowCount);
  for (let row = 0; row < rowCount; row++) rows[row]![column] = rowIsValid(validity, row) ? timestampText(read(row), 'us', zoned) : null;
}

/** DuckDB stores a decimal as a 16-, 32-, 64- or 128-bit integer by its width; the last is left to the bindings. */
function fillDecimals(target: Target, data: (bytesPerRow: number) => Uint8Array, width: number, scale: number): boolean {
  const { rows, column, rowCount, validity } = target;
  if (width > 18) return false;
  if (width > 9) {
    const read = signed64(data(8), rowCount);
    for (let row = 0; row < rowCount; row++) rows[row]![column] = rowIsValid(validity, row) ? decimalJson(read(row), width, scale) : null;
    return true;
  }
  const scaled = width > 4 ? view(Int32Array, data(4), rowCount) : view(Int16Array, data(2), rowCount);
  for (let row = 0; row < rowCount; row++) rows[row]![column] = rowIsValid(validity, row) ? decimalJson(scaled[row]!, width, scale) : null;
  return true;
}

/** A 64-bit integer column's values: numbers when they are ones exactly, bigints otherwise. */
function signed64(bytes: Uint8Array, rowCount: number): (row: number) => number | bigint {
  const words = view(Int32Array, bytes, rowCount * 2);
  const bigs = view(BigInt64Array, bytes, rowCount);
  return (row) => {
    const high = words[2 * row + 1]!;
    return high > -safeHighWord && high < safeHighWord ? high * twoTo32 + (words[2 * row]! >>> 0) : bigs[row]!;
  };
}

type TypedArrayOf<T> = { new (buffer: ArrayBufferLike, byteOffset: number, length: number): T; BYTES_PER_ELEMENT: number };

/** A typed view of a vector's data; DuckDB aligns its vectors, a copy is made if one ever is not. */
function view<T>(Type: TypedArrayOf<T>, bytes: Uint8Array, length: number): T {
  const source = bytes.byteOffset % Type.BYTES_PER_ELEMENT === 0 ? bytes : new Uint8Array(bytes);
  return new Type(source.buffer, source.byteOffset, length);
}
