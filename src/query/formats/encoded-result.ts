import type { JsonValue } from '../../engine/sql/encode-values';
import type { QueryColumn, ResultSink } from '../../engine/sql/result-sink';
import { jsonText } from './json-text';

export type ResultFormat = 'json' | 'objects' | 'csv';

export interface ResultSummary {
  rowCount: number;
  executionTimeMs: number;
  bytesScanned: number;
  costEur: number;
  cpuMs: number;
}

/**
 * A result encoded while it is read: each chunk of rows becomes text at once, so memory holds the
 * encoded result only, and the body streams out of the pieces.
 */
export interface EncodedResult extends ResultSink {
  readonly contentType: string;
  /** The whole body, in pieces, once the query has finished. */
  body(summary: ResultSummary): string[];
}

export function metadataOf(summary: ResultSummary) {
  return { bytes_scanned: summary.bytesScanned, cost_eur: summary.costEur, cpu_ms: summary.cpuMs };
}

/** `{"columns": […], "rows": [[…], …], "row_count", "execution_time_ms", "metadata"}` */
export class JsonArraysResult implements EncodedResult {
  readonly contentType = 'application/json';
  private header = '';
  private readonly pieces: string[] = [];

  columns(columns: QueryColumn[]): void {
    this.header = `{"columns":${JSON.stringify(columns)},"rows":[`;
  }

  rows(rows: JsonValue[][]): number {
    const text = elementsText(rows);
    this.pieces.push(this.pieces.length ? `,${text}` : text);
    return text.length;
  }

  body(summary: ResultSummary): string[] {
    return [this.header, ...this.pieces, `],${tail(summary)}}`];
  }
}

/** `{"data": [{…}, …], "row_count", "execution_time_ms", "metadata"}` */
export class JsonObjectsResult implements EncodedResult {
  readonly contentType = 'application/json';
  private names: string[] = [];
  private readonly pieces: string[] = [];

  columns(columns: QueryColumn[]): void {
    this.names = columns.map((column) => column.name);
  }

  rows(rows: JsonValue[][]): number {
    const text = elementsText(rows.map((row) => Object.fromEntries(this.names.map((name, index) => [name, row[index]!]))));
    this.pieces.push(this.pieces.length ? `,${text}` : text);
    return text.length;
  }

  body(summary: ResultSummary): string[] {
    return ['{"data":[', ...this.pieces, `],${tail(summary)}}`];
  }
}

/** The items of a chunk, comma-separated: one JSON text for the chunk (a call per row costs twice as much). */
function elementsText(items: unknown[]): string {
  return jsonText(items).slice(1, -1);
}

function tail(summary: ResultSummary): string {
  return `"row_count":${summary.rowCount},"execution_time_ms":${summary.executionTimeMs},"metadata":${JSON.stringify(metadataOf(summary))}`;
}
