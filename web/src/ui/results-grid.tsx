import { useEffect, useState } from 'preact/hooks';
import { ErrorNotice } from './notice';
import { formatCount } from './format';

export interface ResultColumn {
  name: string;
  type: string;
}

/** Rows by position: held in memory (a query's answer) or fetched a page at a time (a job's result). */
export interface ResultSource {
  columns: ResultColumn[];
  total: number;
  page(offset: number, limit: number): unknown[][] | Promise<unknown[][]>;
}

export function memorySource(columns: ResultColumn[], rows: unknown[][]): ResultSource {
  return { columns, total: rows.length, page: (offset, limit) => rows.slice(offset, offset + limit) };
}

const pageSizes = [50, 100, 250, 500];

/**
 * A result as a real table, one page at a time: ten thousand rows or ten million render as fast as
 * one page, a screen reader reads it as a table, and the pager is ordinary buttons.
 */
export function ResultsGrid({ source, label }: { source: ResultSource; label: string }) {
  const [pageSize, setPageSize] = useState(100);
  const [offset, setOffset] = useState(0);
  const [rows, setRows] = useState<unknown[][]>([]);
  const [error, setError] = useState<unknown>(undefined);
  useEffect(() => setOffset(0), [source]);
  useEffect(() => {
    let current = true;
    setError(undefined);
    Promise.resolve(source.page(offset, pageSize))
      .then((page) => current && setRows(page))
      .catch((caught: unknown) => current && setError(caught));
    return () => {
      current = false;
    };
  }, [source, offset, pageSize]);
  const last = Math.max(0, Math.floor((source.total - 1) / pageSize) * pageSize);
  const end = Math.min(source.total, offset + rows.length);
  const numeric = source.columns.map((column) => /INT|DECIMAL|DOUBLE|FLOAT|REAL|NUMERIC|HUGEINT/i.test(column.type));
  return (
    <div class="results">
      <div class="table-wrap results-table" tabIndex={0} role="region" aria-label={`${label}: rows ${offset + 1} to ${end}`}>
        <table class="data-table grid" aria-rowcount={source.total + 1}>
          <caption class="visually-hidden">{label}</caption>
          <thead>
            <tr aria-rowindex={1}>
              {source.columns.map((column) => (
                <th scope="col" key={column.name}>
                  <span class="column-name">{column.name}</span>
                  <span class="column-type">{column.type}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={offset + index} aria-rowindex={offset + index + 2}>
                {row.map((value, at) => (
                  <td key={at} class={value === null ? 'null' : numeric[at] ? 'number' : undefined}>
                    {cellText(value)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ErrorNotice error={error} />
      <div class="pager" role="group" aria-label="Result pages">
        <span class="pager-status" aria-live="polite">
          {source.total === 0 ? 'No rows' : `Rows ${formatCount(offset + 1)}–${formatCount(end)} of ${formatCount(source.total)}`}
        </span>
        <button type="button" class="button small" disabled={offset === 0} onClick={() => setOffset(0)}>
          First
        </button>
        <button type="button" class="button small" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - pageSize))}>
          Previous
        </button>
        <button type="button" class="button small" disabled={offset >= last} onClick={() => setOffset(offset + pageSize)}>
          Next
        </button>
        <button type="button" class="button small" disabled={offset >= last} onClick={() => setOffset(last)}>
          Last
        </button>
        <label class="pager-size">
          Rows per page{' '}
          <select
            value={String(pageSize)}
            onChange={(event) => {
              const size = Number(event.currentTarget.value);
              setOffset(Math.floor(offset / size) * size);
              setPageSize(size);
            }}
          >
            {pageSizes.map((size) => (
              <option key={size} value={String(size)}>
                {size}
              </option>
            ))}
          </select>
        </label>
      </div>
    </div>
  );
}

/** A value as a cell shows it: NULL apart, nested values as JSON, very long text cut. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
