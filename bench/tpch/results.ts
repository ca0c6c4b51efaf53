/** One result value in a form every engine's client can be brought to, so results compare across engines. */
export type Cell = number | string | null;
export type Rows = Cell[][];

const numeric = /^-?\d+(\.\d+)?$/;

/**
 * Numbers arrive as numbers, bigints or numeric strings (Postgres' numeric and bigint, DuckDB's
 * decimals in JSON) and dates as Date objects or ISO strings: all become numbers and `YYYY-MM-DD`.
 */
export function toCell(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  const text = String(value);
  return numeric.test(text) ? Number(text) : text;
}

export function toRows(rows: readonly (readonly unknown[])[]): Rows {
  return rows.map((row) => row.map(toCell));
}

/**
 * What differs between two results, row by row in order (every TPC-H query sorts or returns one
 * row), or undefined. Numbers may differ by a relative 1e-6: the engines sum and average in
 * different number types (DuckDB doubles, Postgres numeric), which a changed meaning, such as an
 * integer division, exceeds by far.
 */
export function differenceOf(expected: Rows, actual: Rows): string | undefined {
  if (actual.length !== expected.length) return `${actual.length} rows instead of ${expected.length}`;
  for (const [r, row] of expected.entries()) {
    const other = actual[r]!;
    if (other.length !== row.length) return `${other.length} columns instead of ${row.length}`;
    for (const [c, value] of row.entries()) {
      if (!same(value, other[c]!)) return `row ${r + 1}, column ${c + 1}: ${JSON.stringify(other[c])} instead of ${JSON.stringify(value)}`;
    }
  }
  return undefined;
}

function same(a: Cell, b: Cell): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
  return a === b;
}
