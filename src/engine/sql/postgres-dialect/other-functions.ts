import { rename, renderArgs, type Call, type CallRule, type CallRules } from './calls';
import { isWord, meaningful } from './token-tree';

function withArgs(count: number, build: (args: string[]) => string): (call: Call) => string | null {
  return (call) => (call.argNodes.length === count ? build(call.args) : null);
}

/**
 * `array_agg(DISTINCT x)`: Postgres sorts the values to drop the repeated ones, so they come in
 * order (NULL last); DuckDB's come in any order. The order is written out.
 */
export function distinctOrdered(args: string): string {
  const distinct = /^\s*distinct\s+([\s\S]*)$/i.exec(args);
  if (!distinct || /\border\s+by\b/i.test(args)) return args;
  const value = splitTopLevel(distinct[1]!)[0]!;
  return `${args} ORDER BY ${value}`;
}

/** The text split at its top-level commas (outside brackets and quotes). */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let from = 0;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quote !== null) quote = char === quote ? null : quote;
    else if (char === "'" || char === '"') quote = char;
    else if (char === '(' || char === '[') depth += 1;
    else if (char === ')' || char === ']') depth -= 1;
    else if (char === ',' && depth === 0) {
      parts.push(text.slice(from, i).trim());
      from = i + 1;
    }
  }
  parts.push(text.slice(from).trim());
  return parts;
}

function distinctInOrder(name: string): CallRule {
  return {
    label: 'DISTINCT aggregates in order',
    rewrite(call) {
      const args = renderArgs(call);
      const ordered = distinctOrdered(args);
      return ordered === args ? null : `${name}(${ordered})`;
    },
  };
}

/** `coalesce(NULL, NULL)`: untyped NULLs alone resolve to text in Postgres, to an integer in DuckDB. */
const ofNulls: CallRule = {
  label: 'NULLs alone are text',
  rewrite: (call) =>
    call.argNodes.length > 0 && call.argNodes.every((arg) => isWord(meaningful(arg)[0], 'NULL') && meaningful(arg).length === 1)
      ? 'CAST(NULL AS VARCHAR)'
      : null,
};

/** Numeric, array and aggregate functions that DuckDB lacks or spells differently. */
export const otherFunctionRules: CallRules = {
  // div truncates toward zero for every numeric type; `//` keeps integers integral.
  div: { label: 'div → trunc(a // b)', rewrite: withArgs(2, ([a, b]) => `trunc((${a}) // pgx_divisor(${b}))`) },
  width_bucket: {
    label: 'width_bucket → arithmetic',
    rewrite: (call) =>
      call.argNodes.length === 4
        ? `pgx_width_bucket(${call.args.join(', ')})`
        : call.argNodes.length === 2
          ? `pgx_width_bucket_of(${call.args.join(', ')})`
          : null,
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
  // DuckDB's cardinality is for maps; Postgres' counts array elements, those of every dimension.
  cardinality: { label: 'cardinality → len', rewrite: withArgs(1, ([a]) => `pgx_cardinality(${a})`) },
  array_position: {
    label: 'array_position from a start',
    rewrite: withArgs(3, ([a, v, start]) => `(list_position((${a})[${start}:], ${v}) + (${start}) - 1)`),
  },
  // array_fill of one dimension; of more it stays DuckDB's to refuse.
  array_fill: {
    label: 'array_fill → list of one value',
    rewrite: (call) =>
      call.argNodes.length === 2 && /^ARRAY\s*\[[^,[\]]*\]$/i.test(call.args[1]!)
        ? `list_transform(range(CAST((${call.args[1]})[1] AS BIGINT)), lambda __i: ${call.args[0]})`
        : null,
  },
  trim_array: { label: 'trim_array → slice', rewrite: withArgs(2, ([a, n]) => `pgx_trim_array(${a}, ${n})`) },
  array_agg: distinctInOrder('array_agg'),
  coalesce: ofNulls,
  greatest: ofNulls,
  least: ofNulls,
  string_agg: distinctInOrder('string_agg'),
  // An empty array has no dimensions in Postgres, so its length is NULL, not 0; a nested list's
  // inner lengths are its first element's.
  array_length: {
    label: 'array_length → len, NULL for empty arrays',
    rewrite: withArgs(2, ([a, d]) => (d === '1' ? `nullif(len(${a}), 0)` : `pgx_array_length(${a}, ${d})`)),
  },
  array_upper: {
    label: 'array_upper / array_lower → len',
    rewrite: withArgs(2, ([a, d]) => (d === '1' ? `nullif(len(${a}), 0)` : `pgx_array_length(${a}, ${d})`)),
  },
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
    rewrite: withArgs(
      3,
      ([a, separator, nullText]) => `array_to_string(list_transform(${a}, lambda __e: coalesce(CAST(__e AS VARCHAR), ${nullText})), ${separator})`,
    ),
  },
};
