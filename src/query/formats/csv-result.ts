import type { JsonValue } from '../../engine/sql/encode-values';
import type { QueryColumn } from '../../engine/sql/result-sink';
import type { EncodedResult } from './encoded-result';
import { jsonText } from './json-text';

/** DuckDB's number types: their values are written by the service's own encoder, never text someone typed. */
const numericType = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|REAL|DECIMAL(\(\d+,\s*\d+\))?|VARINT|BIGNUM)$/i;

/**
 * RFC 4180: a header row of column names, then one CRLF-terminated line per row; a field holding a
 * comma, a quote or a line break is quoted, quotes doubled. NULL is an empty field; lists, structs
 * and JSON are their JSON text. Text is neutralised against formula injection (see csvText); numbers
 * stay numbers, negative ones included.
 */
export class CsvResult implements EncodedResult {
  readonly contentType = 'text/csv; charset=utf-8';
  private readonly pieces: string[] = [];
  private numeric: boolean[] = [];

  columns(columns: QueryColumn[]): void {
    this.numeric = columns.map((column) => numericType.test(column.type));
    this.pieces.push(`${columns.map((column) => csvText(column.name)).join(',')}\r\n`);
  }

  rows(rows: JsonValue[][]): number {
    const text = rows.map((row) => `${row.map((value, index) => csvValue(value, this.numeric[index] === true)).join(',')}\r\n`).join('');
    this.pieces.push(text);
    return text.length;
  }

  body(): string[] {
    return this.pieces;
  }
}

/**
 * A value as a field: a number as its digits (a big integer or an exact decimal of a number column
 * arrives as text and is a number all the same), everything else as neutralised text.
 */
export function csvValue(value: JsonValue, numeric = false): string {
  if (value === null) return '';
  if (typeof value === 'number' || (numeric && typeof value === 'string')) return csvField(String(value));
  if (typeof value === 'object') return csvText(jsonText(value));
  return csvText(String(value));
}

/**
 * Text as a field a spreadsheet shows as text: one starting with `=`, `+`, `-`, `@`, a tab or a
 * carriage return would be read as a formula (`=HYPERLINK(…)`, `-2+3+cmd|…`), so it gets a leading
 * single quote, as OWASP advises for CSV injection. Only text is touched: a number column's `-5` is
 * written as `-5` and stays a number.
 */
export function csvText(text: string): string {
  return csvField(/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
