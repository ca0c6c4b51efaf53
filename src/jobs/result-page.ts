import type { JsonValue } from '../engine/sql/encode-values';
import type { QueryColumn } from '../engine/sql/result-sink';
import type { ResultFormat } from '../query/formats/encoded-result';
import { CsvResult } from '../query/formats/csv-result';

/** One page of a job's result, shaped as the job's format asks, like the same query on `/query` would be. */
export type ResultPage = { rows: JsonValue[][] } | { data: Record<string, JsonValue>[] } | { csv: string };

export function resultPage(format: ResultFormat, columns: QueryColumn[], rows: JsonValue[][]): ResultPage {
  switch (format) {
    case 'json':
      return { rows };
    case 'objects':
      return { data: rows.map((row) => Object.fromEntries(columns.map((column, index) => [column.name, row[index] ?? null]))) };
    case 'csv': {
      const csv = new CsvResult();
      csv.columns(columns);
      csv.rows(rows);
      return { csv: csv.body().join('') };
    }
    default:
      return format satisfies never;
  }
}
