import {
  arrayFromArrayValue,
  arrayFromListValue,
  booleanFromValue,
  createDuckDBValueConverter,
  DuckDBBlobValue,
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBIntervalValue,
  DuckDBListVector,
  DuckDBStructType,
  DuckDBStructValue,
  DuckDBStructVector,
  DuckDBTimestampMillisecondsValue,
  DuckDBTimestampNanosecondsValue,
  DuckDBTimestampSecondsValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  DuckDBTypeId,
  fromVariantValue,
  nullConverter,
  numberFromValue,
  objectArrayFromMapValue,
  objectFromUnionValue,
  stringFromValue,
  unsupportedConverter,
  type DuckDBDataChunk,
  type DuckDBType,
  type DuckDBValue,
  type DuckDBValueConverter,
  type DuckDBVector,
} from '@duckdb/node-api';
import { dateText, intervalText, timestampText } from './temporal-text';
import { readFlatColumn } from './flat-vectors';
import { decimalJson, floatJson, integerJson, realJson } from './json-numbers';

/** A JSON value as the query endpoints return it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Integers as numbers while JSON can hold them exactly (±2^53), as strings beyond. */
function integer(value: DuckDBValue): number | string {
  return integerJson(value as bigint | number);
}

/** Decimals as numbers when a double holds them exactly, as their exact digits beyond (DECIMAL(38) and the like). */
function decimal(value: DuckDBValue): number | string {
  const { value: scaled, width, scale } = value as DuckDBDecimalValue;
  return decimalJson(scaled, width, scale);
}

function interval(value: DuckDBValue): string {
  const { months, days, micros } = value as DuckDBIntervalValue;
  return intervalText(months, days, micros);
}

function blob(value: DuckDBValue): string {
  return Buffer.from((value as DuckDBBlobValue).bytes).toString('base64');
}

/**
 * Field names come from the struct's type, by position, into an object without a prototype: a field
 * called `__proto__` or `constructor` is an ordinary key. (Nested inside arrays, maps and unions the
 * bindings have already read the value into a plain object, where `__proto__` does not survive.)
 */
function struct(value: DuckDBValue, type: DuckDBType, convert: DuckDBValueConverter<JsonValue>): JsonValue {
  const { entryNames, entryTypes } = type as DuckDBStructType;
  const { entries } = value as DuckDBStructValue;
  const result: Record<string, JsonValue> = Object.create(null);
  entryNames.forEach((name, index) => {
    result[name] = Object.hasOwn(entries, name) ? convert(entries[name] ?? null, entryTypes[index]!, convert) : null;
  });
  return result;
}

type Converters = Record<DuckDBTypeId, DuckDBValueConverter<JsonValue> | undefined>;

const converters: Converters = {
  [DuckDBTypeId.INVALID]: unsupportedConverter,
  [DuckDBTypeId.BOOLEAN]: booleanFromValue,
  [DuckDBTypeId.TINYINT]: numberFromValue,
  [DuckDBTypeId.SMALLINT]: numberFromValue,
  [DuckDBTypeId.INTEGER]: numberFromValue,
  [DuckDBTypeId.BIGINT]: integer,
  [DuckDBTypeId.UTINYINT]: numberFromValue,
  [DuckDBTypeId.USMALLINT]: numberFromValue,
  [DuckDBTypeId.UINTEGER]: numberFromValue,
  [DuckDBTypeId.UBIGINT]: integer,
  [DuckDBTypeId.HUGEINT]: integer,
  [DuckDBTypeId.UHUGEINT]: integer,
  [DuckDBTypeId.BIGNUM]: integer,
  [DuckDBTypeId.FLOAT]: (value) => realJson(value as number),
  [DuckDBTypeId.DOUBLE]: (value) => floatJson(value as number),
  [DuckDBTypeId.DECIMAL]: decimal,
  [DuckDBTypeId.TIMESTAMP]: (value) => timestampText((value as DuckDBTimestampValue).micros, 'us', false),
  [DuckDBTypeId.TIMESTAMP_TZ]: (value) => timestampText((value as DuckDBTimestampTZValue).micros, 'us', true),
  [DuckDBTypeId.TIMESTAMP_S]: (value) => timestampText((value as DuckDBTimestampSecondsValue).seconds, 's', false),
  [DuckDBTypeId.TIMESTAMP_MS]: (value) => timestampText((value as DuckDBTimestampMillisecondsValue).millis, 'ms', false),
  [DuckDBTypeId.TIMESTAMP_NS]: (value) => timestampText((value as DuckDBTimestampNanosecondsValue).nanos, 'ns', false),
  [DuckDBTypeId.DATE]: (value) => dateText((value as DuckDBDateValue).days),
  [DuckDBTypeId.TIME]: stringFromValue,
  [DuckDBTypeId.TIME_NS]: stringFromValue,
  [DuckDBTypeId.TIME_TZ]: stringFromValue,
  [DuckDBTypeId.INTERVAL]: interval,
  [DuckDBTypeId.VARCHAR]: stringFromValue,
  [DuckDBTypeId.BLOB]: blob,
  [DuckDBTypeId.BIT]: stringFromValue,
  [DuckDBTypeId.ENUM]: stringFromValue,
  [DuckDBTypeId.UUID]: stringFromValue,
  [DuckDBTypeId.LIST]: arrayFromListValue,
  [DuckDBTypeId.ARRAY]: arrayFromArrayValue,
  [DuckDBTypeId.STRUCT]: struct,
  [DuckDBTypeId.MAP]: objectArrayFromMapValue as unknown as DuckDBValueConverter<JsonValue>,
  [DuckDBTypeId.UNION]: objectFromUnionValue as unknown as DuckDBValueConverter<JsonValue>,
  [DuckDBTypeId.ANY]: unsupportedConverter,
  [DuckDBTypeId.SQLNULL]: nullConverter,
  [DuckDBTypeId.STRING_LITERAL]: unsupportedConverter,
  [DuckDBTypeId.INTEGER_LITERAL]: unsupportedConverter,
  [DuckDBTypeId.GEOMETRY]: stringFromValue,
  [DuckDBTypeId.VARIANT]: fromVariantValue,
};

/**
 * DuckDB values to JSON, losing nothing: integers as numbers within ±2^53 and strings beyond; decimals
 * as numbers up to 15 significant digits and strings beyond; doubles as numbers (NaN and infinities as
 * strings); timestamps and dates ISO 8601 over DuckDB's whole range, `infinity` and `-infinity`
 * included; intervals ISO 8601 durations; lists and structs as arrays and objects; maps as key/value
 * pairs; blobs base64; NULL as null. (JSON columns are parsed by the reader: a data chunk's vectors do
 * not carry the JSON alias of their column.)
 */
const jsonValueConverter: DuckDBValueConverter<JsonValue> = createDuckDBValueConverter(converters);

/**
 * A chunk's rows as JSON values. Structs and lists are read from their child vectors rather than
 * through the bindings' struct values, which are plain objects keyed by field name: a field named
 * `__proto__` would set their prototype instead of holding its value.
 */
export function encodeChunkRows(chunk: DuckDBDataChunk): JsonValue[][] {
  const { rowCount, columnCount } = chunk;
  const rows: JsonValue[][] = new Array<JsonValue[]>(rowCount);
  for (let row = 0; row < rowCount; row++) rows[row] = new Array<JsonValue>(columnCount);
  for (let column = 0; column < columnCount; column++) {
    if (readFlatColumn(chunk, column, rows)) continue;
    const item = itemReader(chunk.getColumnVector(column));
    for (let row = 0; row < rowCount; row++) rows[row]![column] = item(row);
  }
  return rows;
}

/** Reads a vector's items as JSON values, with the work that depends only on the vector's type done once. */
function itemReader(vector: DuckDBVector): (index: number) => JsonValue {
  if (vector instanceof DuckDBStructVector || vector instanceof DuckDBListVector) return (index) => vectorItem(vector, index);
  const { type } = vector;
  // Texts arrive as strings: nothing to convert.
  if (type.typeId === DuckDBTypeId.VARCHAR) return (index) => vector.getItem(index) as string | null;
  const convert = converters[type.typeId];
  if (!convert) throw new Error(`No converter for typeId: ${type.typeId}`);
  return (index) => {
    const value = vector.getItem(index);
    return value == null ? null : convert(value, type, jsonValueConverter);
  };
}

function vectorItem(vector: DuckDBVector, index: number): JsonValue {
  if (vector instanceof DuckDBStructVector) {
    if (!vector.isItemValid(index)) return null;
    const result: Record<string, JsonValue> = Object.create(null);
    vector.type.entryNames.forEach((name, entry) => {
      result[name] = vectorItem(vector.entryVectorAt(entry), index);
    });
    return result;
  }
  if (vector instanceof DuckDBListVector) {
    const item = vector.getItemVector(index);
    if (item === null) return null;
    return Array.from({ length: item.itemCount }, (_, position) => vectorItem(item, position));
  }
  return jsonValueConverter(vector.getItem(index), vector.type, jsonValueConverter);
}
