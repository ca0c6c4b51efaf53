import { rename, type Call, type CallRules } from './calls';

function withArgs(count: number, build: (args: string[]) => string): (call: Call) => string | null {
  return (call) => (call.argNodes.length === count ? build(call.args) : null);
}

/** Numeric, array and aggregate functions that DuckDB lacks or spells differently. */
export const otherFunctionRules: CallRules = {
  // div truncates toward zero for every numeric type; `//` keeps integers integral.
  div: { label: 'div → trunc(a // b)', rewrite: withArgs(2, ([a, b]) => `trunc((${a}) // pgx_divisor(${b}))`) },
  width_bucket: {
    label: 'width_bucket → arithmetic',
    rewrite: withArgs(4, ([x, low, high, count]) =>
      `(CASE WHEN (${x}) < (${low}) THEN 0 WHEN (${x}) >= (${high}) THEN (${count}) + 1 ` +
      // INT32: DuckDB's name for integer, which no Postgres cast rule reads (a number needs none).
      `ELSE CAST(floor(CAST(((${x}) - (${low})) * (${count}) AS DOUBLE) / pgx_divisor((${high}) - (${low}))) AS INT32) + 1 END)`,
    ),
  },
  every: rename('bool_and', 'every → bool_and'),
  num_nulls: {
    label: 'num_nulls / num_nonnulls → CASE sums',
    rewrite: (call) => (call.argNodes.length > 0 ? `(${call.args.map((a) => `CASE WHEN (${a}) IS NULL THEN 1 ELSE 0 END`).join(' + ')})` : null),
  },
  num_nonnulls: {
    label: 'num_nulls / num_nonnulls → CASE sums',
    rewrite: (call) => (call.argNodes.length > 0 ? `(${call.args.map((a) => `CASE WHEN (${a}) IS NULL THEN 0 ELSE 1 END`).join(' + ')})` : null),
  },
  // DuckDB's cardinality is for maps; Postgres' counts array elements.
  cardinality: { label: 'cardinality → len', rewrite: withArgs(1, ([a]) => `len(${a})`) },
  // An empty array has no dimensions in Postgres, so its length is NULL, not 0; a nested list's
  // inner lengths are its first element's.
  array_length: { label: 'array_length → len, NULL for empty arrays', rewrite: withArgs(2, ([a, d]) => (d === '1' ? `nullif(len(${a}), 0)` : `pgx_array_length(${a}, ${d})`)) },
  array_upper: { label: 'array_upper / array_lower → len', rewrite: withArgs(2, ([a, d]) => (d === '1' ? `nullif(len(${a}), 0)` : `pgx_array_length(${a}, ${d})`)) },
  array_lower: { label: 'array_upper / array_lower → len', rewrite: withArgs(2, ([a, d]) => `CASE WHEN pgx_array_length(${a}, ${d}) > 0 THEN 1 END`) },
  array_dims: { label: 'array_dims → lengths of the nested lists', rewrite: withArgs(1, ([a]) => `pgx_array_dims(${a})`) },
  array_ndims: { label: 'array_dims → lengths of the nested lists', rewrite: withArgs(1, ([a]) => `pgx_array_ndims(${a})`) },
  array_positions: {
    label: 'array_positions → list_filter',
    rewrite: withArgs(2, ([a, v]) => `list_filter(range(1, len(${a}) + 1), lambda __i: (${a})[__i] IS NOT DISTINCT FROM (${v}))`),
  },
  array_remove: {
    label: 'array_remove / array_replace → list lambdas',
    rewrite: withArgs(2, ([a, v]) => `list_filter(${a}, lambda __e: __e IS DISTINCT FROM (${v}))`),
  },
  array_replace: {
    label: 'array_remove / array_replace → list lambdas',
    rewrite: withArgs(3, ([a, from, to]) => `list_transform(${a}, lambda __e: CASE WHEN __e IS NOT DISTINCT FROM (${from}) THEN ${to} ELSE __e END)`),
  },
  array_to_string: {
    label: 'array_to_string with a NULL string → list_transform',
    rewrite: withArgs(3, ([a, separator, nullText]) => `array_to_string(list_transform(${a}, lambda __e: coalesce(CAST(__e AS VARCHAR), ${nullText})), ${separator})`),
  },
};
