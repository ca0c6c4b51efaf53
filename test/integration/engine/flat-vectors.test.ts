import { describe, expect, test } from 'bun:test';
import {
  DuckDBDataChunk,
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  DuckDBTypeId,
  INTEGER,
  VARCHAR,
  type DuckDBValue,
} from '@duckdb/node-api';
import { encodeChunkRows } from '../../../src/engine/sql/encode-values';
import { readFlatColumn } from '../../../src/engine/sql/flat-vectors';
import { realJson } from '../../../src/engine/sql/json-numbers';
import { dateText, timestampText } from '../../../src/engine/sql/temporal-text';
import { memoryDuckDB } from '../../support/memory-duckdb';

const maxSafe = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The documented JSON of a value of a column's type as the bindings read it, item by item. A real
 * (FLOAT) shows as the fewest digits that read back as the same real, as Postgres shows it; a double
 * as JavaScript's number.
 */
function documented(value: DuckDBValue, typeId: DuckDBTypeId): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && typeId === DuckDBTypeId.FLOAT) return realJson(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return value <= maxSafe && value >= -maxSafe ? Number(value) : value.toString();
  if (value instanceof DuckDBDecimalValue) {
    const text = value.toString().replace(/^(-?)\./, '$10.');
    const significant = text.replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '');
    return significant.length <= 15 ? Number(text) : text;
  }
  if (value instanceof DuckDBDateValue) return dateText(value.days);
  if (value instanceof DuckDBTimestampTZValue) return timestampText(value.micros, 'us', true);
  if (value instanceof DuckDBTimestampValue) return timestampText(value.micros, 'us', false);
  throw new Error(`no documented form for ${String(value)}`);
}

describe('flat columns read from DuckDB memory', () => {
  const connection = memoryDuckDB();

  async function chunksOf(sql: string): Promise<DuckDBDataChunk[]> {
    const result = await connection().run(sql);
    return Array.from({ length: result.chunkCount }, (_, index) => result.getChunk(index));
  }

  /** Every column through the flat reader and, on fresh chunks, through the bindings: the same values. */
  async function expectSameAsBindings(sql: string): Promise<number> {
    const flat = await chunksOf(sql);
    const reference = await chunksOf(sql);
    let rows = 0;
    const wrong: unknown[] = [];
    flat.forEach((chunk, index) => {
      const expected = reference[index]!.getRows();
      const got = Array.from({ length: chunk.rowCount }, () => new Array<unknown>(chunk.columnCount));
      for (let column = 0; column < chunk.columnCount; column++) {
        if (!readFlatColumn(chunk, column, got)) throw new Error(`column ${column} is not read flat`);
        const { typeId } = chunk.getColumnVector(column).type;
        for (let row = 0; row < chunk.rowCount; row++) {
          const want = documented(expected[row]![column]!, typeId);
          if (!Object.is(got[row]![column], want)) wrong.push({ column, row, got: got[row]![column], want });
        }
      }
      rows += chunk.rowCount;
    });
    expect(wrong.slice(0, 10)).toEqual([]);
    return rows;
  }

  test('every type read flat gives the values the bindings give, NULLs in place, over several chunks', async () => {
    const rows = await expectSameAsBindings(`
      SELECT
        CASE WHEN i % 7 = 0 THEN NULL ELSE (i % 256 - 128)::TINYINT END,
        CASE WHEN i % 7 = 1 THEN NULL ELSE (i * 7 % 65536 - 32768)::SMALLINT END,
        CASE WHEN i % 7 = 2 THEN NULL ELSE (i * 104729 - 300000000)::INTEGER END,
        CASE WHEN i % 7 = 3 THEN NULL ELSE (i - 2500)::BIGINT * 3689348814741910 END,
        (i % 256)::UTINYINT, (i * 13 % 65536)::USMALLINT, (i::UBIGINT * 858993)::UINTEGER,
        CASE WHEN i % 5 = 0 THEN NULL ELSE i::UBIGINT * 3689348814741910 END,
        (i / 7.0)::FLOAT, CASE WHEN i % 11 = 0 THEN NULL ELSE i / 3.0 - 800 END,
        ((i % 1999 - 999) / 10)::DECIMAL(4,1), ((i - 2500) * 123.457)::DECIMAL(9,3),
        ((i - 2500) * 390000000.123457)::DECIMAL(18,6), ((i - 2500)::HUGEINT * 390000000000007)::DECIMAL(18,0),
        i % 3 = 0, DATE '2000-01-01' + (i * 97 - 200000)::INTEGER,
        TIMESTAMP '2000-01-01' + to_microseconds(i::BIGINT * 86399999999 - 200000000000000),
        CASE WHEN i % 4 = 0 THEN NULL ELSE TIMESTAMPTZ '2024-05-01 12:00:00+00' + to_microseconds(i::BIGINT * 1000001) END,
        CASE WHEN i % 9 = 0 THEN NULL ELSE repeat(chr((97 + i % 26)::INTEGER), (i % 30)::INTEGER) END,
        CASE WHEN i % 6 = 0 THEN NULL ELSE repeat('é€😀', (i % 8)::INTEGER) || i::VARCHAR END
      FROM range(5000) r(i)`);
    expect(rows).toBe(5000);
  });

  test('boundaries: exact integers to ±2^53 and digits beyond, decimals around 15 digits, non-finite floats, infinite dates', async () => {
    await expectSameAsBindings(`
      SELECT a::BIGINT, b::UBIGINT, c::DECIMAL(18,0), c6::DECIMAL(18,6), c3::DECIMAL(18,3), d::DOUBLE, e::DATE, f::TIMESTAMP, g::DECIMAL(18,18), h::DECIMAL(9,9), k::DECIMAL(4,4)
      FROM (VALUES
        ('9007199254740991', '9007199254740991', '999999999999999', '123456789.012345', '999999999999.999', 'nan', 'infinity', 'infinity', '0', '0.999999999', '0.9999'),
        ('-9007199254740991', '9007199254740992', '1000000000000000', '-123456789.0123456', '1000000000000.000', 'inf', '-infinity', '-infinity', '0.123456789012345678', '-0.000000001', '-0.0001'),
        ('9007199254740992', '18446744073709551615', '-999999999999999999', '999999999999.999999', '-1000000000000.001', '-inf', '5877641-06-25', '294247-01-10 04:00:54.775806', '-0.000000000000001', NULL, NULL),
        ('-9007199254740992', '0', '999999999999999999', '-0.000001', '100000000000000.000', '-0.0', '-5877641-06-25', '-290308-12-22 00:00:00', '-0.9', '0.5', '0.5'),
        ('9223372036854775807', '4294967296', '-1000000000000000', '-12345.678901', '-100000000000000.001', '1e308', '0001-01-01', '1969-12-31 23:59:59.999999', NULL, NULL, NULL),
        ('-9223372036854775808', '4294967295', '0', '0', '0', '5e-324', '1970-01-01', '1970-01-01 00:00:00', NULL, NULL, NULL),
        ('-4294967296', '1', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
        ('-1', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
      ) v(a, b, c, c6, c3, d, e, f, g, h, k)`);
  });

  test('reals as the fewest digits that read back as the same real, not their widening to a double', async () => {
    const [chunk] = await chunksOf(
      `SELECT r::FLOAT FROM (VALUES ('3.14'), ('0.1'), ('-2.5'), ('16777217'), ('1e-45'), ('3.4028235e38'), ('nan'), ('-inf'), (NULL)) v(r)`,
    );
    const got = Array.from({ length: chunk!.rowCount }, () => [] as unknown[]);
    expect(readFlatColumn(chunk!, 0, got)).toBe(true);
    expect(got.map(([real]) => real)).toEqual([3.14, 0.1, -2.5, 16777216, 1e-45, 3.4028235e38, 'NaN', '-Infinity', null]);
  });

  test('texts: empty, around the 12 bytes held inline, multibyte, NUL inside, and long', async () => {
    const texts = [
      '',
      'a',
      '123456789012',
      '1234567890123',
      'ééééé12',
      'éééééé',
      'éééééé1',
      'a\u0000b',
      'a\u0000bcdefghijklmnop',
      '😀😀😀',
      '😀😀😀😀',
      'quote " and \\ back',
      'x'.repeat(100_000) + 'é',
    ];
    const values = texts
      .map(
        (text) =>
          `(${
            text.includes('\u0000')
              ? text
                  .split('\u0000')
                  .map((part) => `'${part}'`)
                  .join(' || chr(0) || ')
              : `'${text.replaceAll("'", "''")}'`
          })`,
      )
      .join(', ');
    const [chunk] = await chunksOf(`SELECT t FROM (VALUES ${values}, (NULL)) v(t)`);
    const got = Array.from({ length: chunk!.rowCount }, () => [] as unknown[]);
    expect(readFlatColumn(chunk!, 0, got)).toBe(true);
    expect(got.map(([text]) => text)).toEqual([...texts, null]);
  });

  test('a chunk of no rows reads as no rows', () => {
    const chunk = DuckDBDataChunk.create([VARCHAR, INTEGER], 0);
    expect(encodeChunkRows(chunk)).toEqual([]);
  });

  test('types with no flat reading are left to the bindings', async () => {
    const [chunk] = await chunksOf(
      "SELECT INTERVAL 1 DAY, 1::HUGEINT, 1.5::DECIMAL(38,2), [1, 2], gen_random_uuid(), TIME '12:00', {'a': 1}, 'a'::ENUM ('a', 'b'), '\\x00'::BLOB, TIMESTAMP_NS '2020-01-01'",
    );
    const rows = [new Array<unknown>(chunk!.columnCount)];
    expect(Array.from({ length: chunk!.columnCount }, (_, column) => readFlatColumn(chunk!, column, rows))).toEqual(
      Array.from({ length: chunk!.columnCount }, () => false),
    );
    expect(rows[0]!.every((value) => value === undefined)).toBe(true);
  });
});
