import type { JsonValue } from './encode-values';

export interface QueryColumn {
  name: string;
  /** DuckDB's type name, e.g. BIGINT, VARCHAR, TIMESTAMP WITH TIME ZONE, STRUCT(a INTEGER). */
  type: string;
}

/**
 * Where a query's rows go as they arrive, a chunk at a time: a response format serializes them at
 * once, so only the encoded result is held. `rows` reports how many bytes the chunk added, which the
 * runner holds against the result cap.
 */
export interface ResultSink {
  columns(columns: QueryColumn[]): void;
  rows(rows: JsonValue[][]): number;
}

/** Keeps the rows as values (tests, internal callers). */
export class RowCollector implements ResultSink {
  columnList: QueryColumn[] = [];
  readonly collected: JsonValue[][] = [];

  columns(columns: QueryColumn[]): void {
    this.columnList = columns;
  }

  rows(rows: JsonValue[][]): number {
    this.collected.push(...rows);
    return 0;
  }

  objects(): Record<string, JsonValue>[] {
    return this.collected.map((row) => Object.fromEntries(this.columnList.map((column, index) => [column.name, row[index]!])));
  }
}
