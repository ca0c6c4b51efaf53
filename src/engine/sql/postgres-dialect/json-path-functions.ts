import type { CallRule, CallRules } from './calls';
import { macroArgument } from './operands';

/**
 * `jsonb_path_query` and its kin for paths DuckDB's json_extract reads alike: keys, `.*`, `[n]` and
 * `[*]` from `$`. Postgres' lax mode skips what is missing, as json_extract does. A path with a
 * filter, an arithmetic step, `last`, a range or a `strict`/`lax` mode, or a vars argument, is
 * left as written (DuckDB has no such function).
 */
const simplePath = /^'\$(\.[A-Za-z_][A-Za-z0-9_]*|\.\*|\[(\d+|\*)\])*'$/;

/** The matches of `(json, 'path')` as a list of JSON values, or null when the call is not translated. */
export function pathMatches(args: readonly string[]): string | null {
  if (args.length !== 2 || !simplePath.test(args[1]!)) return null;
  const json = macroArgument(args[0]!);
  // A path with a wildcard matches any number of values; without one, at most one.
  return args[1]!.includes('*') ? `json_extract(${json}, ${args[1]})` : `list_filter([json_extract(${json}, ${args[1]})], lambda __m: __m IS NOT NULL)`;
}

const rule = (build: (items: string) => string): CallRule => ({
  label: 'jsonb_path_* → json_extract',
  rewrite: (call) => {
    const items = pathMatches(call.args);
    return items === null ? null : build(items);
  },
});

export const jsonPathFunctionRules: CallRules = {
  jsonb_path_query_array: rule((items) => `to_json(${items})`),
  jsonb_path_query_first: rule((items) => `(${items})[1]`),
  jsonb_path_exists: rule((items) => `(len(${items}) > 0)`),
};
