import duckdb from '@duckdb/node-bindings';
import { DuckDBTypeId, type DuckDBDataChunk } from '@duckdb/node-api';
import { CString, ptr, type Pointer } from 'bun:ffi';
import { dateText, timestampText } from '../values/temporal-text';
import { decimalJson, floatJson, integerJson } from './json-numbers';

/** The JSON values a flat column of a result's common types becomes. */
type FlatJson = string | number | boolean | null;

type Read = (row: number) => FlatJson;

/** DuckDB keeps a text as 16 bytes: its length, then the text itself when it fits in 12 bytes, else a prefix and a pointer. */
const textEntryBytes = 16;
const inlineTextBytes = 12;
const twoTo32 = 2 ** 32;
/** A 64-bit integer whose upper half lies strictly within ±2^21 is within ±2^53 and a double exactly. */
const safeHighWord = 2 ** 21;

/**
 * Reads one column of a result's chunk straight from DuckDB's memory, for the types results mostly
 * hold: texts, integers, floating point, decimals of up to 18 digits, booleans, dates and timestamps.
 * The bindings' vectors make a value object of every item, test validity with BigInt arithmetic and
 * copy each text longer than 12 bytes into a buffer of its own before decoding it: an 18,000-row
 * result of two texts and two integers took 12 ms to read that way, 1 ms this way. The values are
 * the ones encode-values' converters give. Any other type answers undefined, to be read through the
 * bindings. A chunk of a result is flat (DuckDB's C API hands out no dictionary or constant vectors),
 * and the chunk keeps its memory alive while the reader is used.
 */
export function flatColumnReader(chunk: DuckDBDataChunk, column: number): Read | undefined {
  const rowCount = chunk.rowCount;
  // Nothing to read, and perhaps no memory to point at (Bun refuses a pointer into an empty array).
  if (rowCount === 0) return () => null;
  const vector = duckdb.data_chunk_get_vector(chunk.chunk, column);
  const logicalType = duckdb.vector_get_column_type(vector);
  const read = valueReader(vector, logicalType, rowCount);
  if (!read) return undefined;
  // Validity is a bit per row, in little-endian 64-bit words; none at all when every row is valid.
  // Checked before the value is read: a NULL text's entry holds no valid pointer.
  const validity: Uint8Array | null | undefined = duckdb.vector_get_validity(vector, Math.ceil(rowCount / 64) * 8);
  if (!validity) return read;
  return (row) => ((validity[row >> 3]! >> (row & 7)) & 1 ? read(row) : null);
}

function valueReader(vector: duckdb.Vector, logicalType: duckdb.LogicalType, rowCount: number): Read | undefined {
  const typeId = duckdb.get_type_id(logicalType) as number as DuckDBTypeId;
  const data = (bytesPerRow: number) => duckdb.vector_get_data(vector, rowCount * bytesPerRow);
  switch (typeId) {
    case DuckDBTypeId.VARCHAR:
      return textReader(data(textEntryBytes), rowCount);
    case DuckDBTypeId.BOOLEAN: {
      const values = data(1);
      return (row) => values[row] !== 0;
    }
    case DuckDBTypeId.TINYINT:
      return numbers(view(Int8Array, data(1), rowCount));
    case DuckDBTypeId.UTINYINT:
      return numbers(data(1));
    case DuckDBTypeId.SMALLINT:
      return numbers(view(Int16Array, data(2), rowCount));
    case DuckDBTypeId.USMALLINT:
      return numbers(view(Uint16Array, data(2), rowCount));
    case DuckDBTypeId.INTEGER:
      return numbers(view(Int32Array, data(4), rowCount));
    case DuckDBTypeId.UINTEGER:
      return numbers(view(Uint32Array, data(4), rowCount));
    case DuckDBTypeId.BIGINT:
      return signed64Reader(data(8), rowCount, integerJson);
    case DuckDBTypeId.UBIGINT: {
      const bytes = data(8);
      const words = view(Uint32Array, bytes, rowCount * 2);
      const bigs = view(BigUint64Array, bytes, rowCount);
      return (row) => (words[2 * row + 1]! < safeHighWord ? words[2 * row + 1]! * twoTo32 + words[2 * row]! : integerJson(bigs[row]!));
    }
    case DuckDBTypeId.FLOAT: {
      const values = view(Float32Array, data(4), rowCount);
      return (row) => floatJson(values[row]!);
    }
    case DuckDBTypeId.DOUBLE: {
      const values = view(Float64Array, data(8), rowCount);
      return (row) => floatJson(values[row]!);
    }
    case DuckDBTypeId.DECIMAL:
      return decimalReader(data, logicalType, rowCount);
    case DuckDBTypeId.DATE: {
      const days = view(Int32Array, data(4), rowCount);
      return (row) => dateText(days[row]!);
    }
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_TZ: {
      const micros = view(BigInt64Array, data(8), rowCount);
      const zoned = typeId === DuckDBTypeId.TIMESTAMP_TZ;
      return (row) => timestampText(micros[row]!, 'us', zoned);
    }
    default:
      return undefined;
  }
}

function decimalReader(data: (bytesPerRow: number) => Uint8Array, logicalType: duckdb.LogicalType, rowCount: number): Read | undefined {
  const width = duckdb.decimal_width(logicalType);
  const scale = duckdb.decimal_scale(logicalType);
  // DuckDB stores a decimal as a 16-, 32-, 64- or 128-bit integer by its width; the last is read through the bindings.
  if (width <= 4) {
    const scaled = view(Int16Array, data(2), rowCount);
    return (row) => decimalJson(scaled[row]!, width, scale);
  }
  if (width <= 9) {
    const scaled = view(Int32Array, data(4), rowCount);
    return (row) => decimalJson(scaled[row]!, width, scale);
  }
  if (width <= 18) return signed64Reader(data(8), rowCount, (scaled) => decimalJson(scaled, width, scale));
  return undefined;
}

/** A 64-bit integer column, handed to `json` as a number when it is one exactly, as a bigint otherwise. */
function signed64Reader(bytes: Uint8Array, rowCount: number, json: (value: number | bigint) => FlatJson): Read {
  const words = view(Int32Array, bytes, rowCount * 2);
  const bigs = view(BigInt64Array, bytes, rowCount);
  return (row) => {
    const high = words[2 * row + 1]!;
    return high > -safeHighWord && high < safeHighWord ? json(high * twoTo32 + (words[2 * row]! >>> 0)) : json(bigs[row]!);
  };
}

/**
 * Texts are decoded from UTF-8 by the runtime straight out of DuckDB's memory, the short ones inside
 * their entry and the long ones where the entry points: one call and no copy per text.
 */
function textReader(entries: Uint8Array, rowCount: number): Read {
  const words = view(Uint32Array, entries, rowCount * 4);
  const base = ptr(entries);
  return (row) => {
    const at = row * 4;
    const length = words[at]!;
    // A CString of length 0 would read up to the next NUL instead.
    if (length === 0) return '';
    if (length <= inlineTextBytes) return new CString(base, row * textEntryBytes + 4, length).toString();
    return new CString((words[at + 2]! + words[at + 3]! * twoTo32) as Pointer, 0, length).toString();
  };
}

function numbers(values: ArrayLike<number>): Read {
  return (row) => values[row]!;
}

type TypedArrayOf<T> = { new (buffer: ArrayBufferLike, byteOffset: number, length: number): T; BYTES_PER_ELEMENT: number };

/** A typed view of a vector's data; DuckDB aligns its vectors, a copy is made if one ever is not. */
function view<T>(Type: TypedArrayOf<T>, bytes: Uint8Array, length: number): T {
  const source = aligned(bytes, Type.BYTES_PER_ELEMENT);
  return new Type(source.buffer, source.byteOffset, length);
}

function aligned(bytes: Uint8Array, alignment: number): Uint8Array {
  return bytes.byteOffset % alignment === 0 ? bytes : new Uint8Array(bytes);
}
