import {
  arrayFromArrayValue,
  arrayFromListValue,
  booleanFromValue,
  createDuckDBValueConverter,
  DuckDBBlobValue,
  DuckDBDecimalValue,
  DuckDBIntervalValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  DuckDBTypeId,
  fromVariantValue,
  jsonNumberFromValue,
  nullConverter,
  numberFromValue,
  objectArrayFromMapValue,
  objectFromStructValue,
  objectFromUnionValue,
  stringFromValue,
  unsupportedConverter,
  type DuckDBValue,
  type DuckDBValueConverter,
} from '@duckdb/node-api';

/** A JSON value as the query endpoints return it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

const maxSafe = BigInt(Number.MAX_SAFE_INTEGER);

/** Integers as numbers while JSON can hold them exactly (±2^53), as strings beyond. */
function integer(value: DuckDBValue): number | string {
  const big = typeof value === 'bigint' ? value : BigInt(value as number);
  return big <= maxSafe && big >= -maxSafe ? Number(big) : big.toString();
}

function decimal(value: DuckDBValue): number {
  return (value as DuckDBDecimalValue).toDouble();
}

/** ISO 8601 with microseconds when there are any: `2026-11-21T08:30:00.123456Z` (no zone for TIMESTAMP). */
function timestamp(value: DuckDBValue, zoned: boolean): string {
  const micros = (value as DuckDBTimestampValue | DuckDBTimestampTZValue).micros;
  const millis = micros / 1000n;
  const extra = Number(((micros % 1000n) + 1000n) % 1000n);
  const base = new Date(Number(millis - (micros < 0n && extra !== 0 ? 1n : 0n))).toISOString().slice(0, -1);
  const text = extra === 0 ? base : `${base}${String(extra).padStart(3, '0')}`;
  return zoned ? `${text}Z` : text;
}

/** ISO 8601 durations, as Postgres writes them with IntervalStyle iso_8601: `P1Y2M3DT4H5M6.5S`. */
function interval(value: DuckDBValue): string {
  const { months, days, micros } = value as DuckDBIntervalValue;
  const years = Math.trunc(months / 12);
  const restMonths = months % 12;
  const totalMicros = BigInt(micros);
  const hours = totalMicros / 3_600_000_000n;
  const minutes = (totalMicros % 3_600_000_000n) / 60_000_000n;
  const secondMicros = totalMicros % 60_000_000n;
  const seconds = Number(secondMicros) / 1_000_000;
  const date = `${years ? `${years}Y` : ''}${restMonths ? `${restMonths}M` : ''}${days ? `${days}D` : ''}`;
  const time = `${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${seconds ? `${seconds}S` : ''}`;
  if (!date && !time) return 'PT0S';
  return `P${date}${time ? `T${time}` : ''}`;
}

function blob(value: DuckDBValue): string {
  return Buffer.from((value as DuckDBBlobValue).bytes).toString('base64');
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
  [DuckDBTypeId.BIGNUM]: stringFromValue,
  [DuckDBTypeId.FLOAT]: jsonNumberFromValue,
  [DuckDBTypeId.DOUBLE]: jsonNumberFromValue,
  [DuckDBTypeId.DECIMAL]: decimal,
  [DuckDBTypeId.TIMESTAMP]: (value) => timestamp(value, false),
  [DuckDBTypeId.TIMESTAMP_TZ]: (value) => timestamp(value, true),
  [DuckDBTypeId.TIMESTAMP_S]: stringFromValue,
  [DuckDBTypeId.TIMESTAMP_MS]: stringFromValue,
  [DuckDBTypeId.TIMESTAMP_NS]: stringFromValue,
  [DuckDBTypeId.DATE]: stringFromValue,
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
  [DuckDBTypeId.STRUCT]: objectFromStructValue as DuckDBValueConverter<JsonValue>,
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
 * DuckDB values to JSON: integers as numbers within ±2^53 and strings beyond; decimals and doubles as
 * numbers (NaN and infinities as strings); timestamps ISO 8601; dates YYYY-MM-DD; intervals ISO 8601
 * durations; lists and structs
 * as arrays and objects; maps as key/value pairs; blobs base64; NULL as null. (JSON columns are
 * parsed by the reader: a data chunk's vectors do not carry the JSON alias of their column.)
 */
export const jsonValueConverter: DuckDBValueConverter<JsonValue> = createDuckDBValueConverter(converters);
