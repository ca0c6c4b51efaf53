import { JSDuckDBValueConverter, type DuckDBDataChunk, type DuckDBMaterializedResult, type DuckDBType, type DuckDBValue, type JS } from '@duckdb/node-api';

/**
 * A statement's complete result, held by DuckDB and read synchronously chunk by chunk: nothing here
 * goes back to the runtime's work pool (see pending-statement.ts).
 */
export class MaterializedRows {
  constructor(private readonly result: DuckDBMaterializedResult) {}

  get rowCount(): number {
    return this.result.rowCount;
  }

  columnNames(): string[] {
    return this.result.columnNames();
  }

  columnTypes(): DuckDBType[] {
    return this.result.columnTypes();
  }

  *chunks(): Generator<DuckDBDataChunk> {
    const count = this.result.chunkCount;
    for (let index = 0; index < count; index++) yield this.result.getChunk(index);
  }

  getRows(): DuckDBValue[][] {
    return [...this.chunks()].flatMap((chunk) => chunk.getRows());
  }

  /** The first value of the first row: what a `SELECT count(*) …` answers. */
  scalar(): DuckDBValue | undefined {
    return this.getRows()[0]?.[0];
  }

  /** Rows as objects of plain JavaScript values (BIGINT as bigint, timestamps as Date). */
  getRowObjectsJS(): Record<string, JS>[] {
    const names = this.result.deduplicatedColumnNames();
    return [...this.chunks()].flatMap((chunk) =>
      chunk.convertRows(JSDuckDBValueConverter).map((row) => Object.fromEntries(names.map((name, index) => [name, row[index] ?? null]))),
    );
  }
}
