import type { JsonValue } from '../../engine/sql/encode-values';
import type { QueryColumn } from '../../engine/sql/result-sink';
import type { EncodedResult } from './encoded-result';
import { jsonText } from './json-text';

/**
 * RFC 4180: a header row of column names, then one CRLF-terminated line per row; a field holding a
 * comma, a quote or a line break is quoted, quotes doubled. NULL is an empty field; lists, structs
 * and JSON are their JSON text.
 */
export class CsvResult implements EncodedResult {
  readonly contentType = 'text/csv; charset=utf-8';
  private readonly pieces: string[] = [];

  columns(columns: QueryColumn[]): void {
    this.pieces.push(`${columns.map((column) => csvField(column.name)).join(',')}\r\n`);
  }

  rows(rows: JsonValue[][]): number {
    const text = rows.map((row) => `${row.map(csvValue).join(',')}\r\n`).join('');
    this.pieces.push(text);
    return text.length;
  }

  body(): string[] {
    return this.pieces;
  }
}

function csvValue(value: JsonValue): string {
  if (value === null) return '';
  if (typeof value === 'object') return csvField(jsonText(value));
  return csvField(String(value));
}

export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
