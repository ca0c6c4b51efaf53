import type { JsonValue } from '../../engine/sql/encode-values';
import type { QueryColumn } from '../../engine/sql/result-sink';
import type { EncodedResult } from './encoded-result';
import { jsonText } from './json-text';

/**
 * Types whose text the service's own encoder writes (numbers, dates, times, intervals, booleans,
 * UUIDs): no one typed it, so no formula can hide in it, and it stays as written (`-5`, `-infinity`,
 * `+275760-09-14`). Every other column's text (VARCHAR, JSON, enums, blobs, nested values) may be
 * anyone's.
 */
const typedColumn =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|REAL|DECIMAL(\(\d+,\s*\d+\))?|VARINT|BIGNUM|DATE|TIME|TIME WITH TIME ZONE|TIME_NS|TIMESTAMP(_S|_MS|_NS)?|TIMESTAMP WITH TIME ZONE|INTERVAL|BOOLEAN|UUID)$/i;

/**
 * RFC 4180: a header row of column names, then one CRLF-terminated line per row; a field holding a
 * comma, a quote or a line break is quoted, quotes doubled. NULL is an empty field; lists, structs
 * and JSON are their JSON text. Text is neutralised against formula injection (see csvText); numbers
 * stay numbers, negative ones included, and dates and times stay as written.
 */
export class CsvResult implements EncodedResult {
  readonly contentType = 'text/csv; charset=utf-8';
  private readonly pieces: string[] = [];
  private typed: boolean[] = [];

  columns(columns: QueryColumn[]): void {
    this.typed = columns.map((column) => typedColumn.test(column.type));
    this.pieces.push(`${columns.map((column) => csvText(column.name)).join(',')}\r\n`);
  }

  rows(rows: JsonValue[][]): number {
    const text = rows.map((row) => `${row.map((value, index) => csvValue(value, this.typed[index] === true)).join(',')}\r\n`).join('');
    this.pieces.push(text);
    return text.length;
  }

  body(): string[] {
    return this.pieces;
  }
}

/**
 * A value as a field: a number as its digits, the text of a typed column as written (a big integer or
 * an exact decimal arrives as text and is a number all the same), everything else as neutralised text.
 */
export function csvValue(value: JsonValue, typed = false): string {
  if (value === null) return '';
  if (typeof value === 'number' || (typed && typeof value === 'string')) return csvField(String(value));
  if (typeof value === 'object') return csvText(jsonText(value));
  return csvText(String(value));
}

/**
 * Text as a field a spreadsheet shows as text: one starting with `=`, `+`, `-`, `@`, a tab or a
 * carriage return would be read as a formula (`=HYPERLINK(…)`, `-2+3+cmd|…`), so it gets a leading
 * single quote, as OWASP advises for CSV injection. Only text is touched: a number column's `-5` is
 * written as `-5` and stays a number, a date column's `-infinity` stays a date.
 */
export function csvText(text: string): string {
  return csvField(/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
