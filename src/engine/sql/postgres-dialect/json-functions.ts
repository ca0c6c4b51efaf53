import { literalArgument, rename, renderArgs, type Call, type CallRule, type CallRules } from './calls';
import { jsonPath } from './json-path';
import { sqlString } from './literals';
import { callEnd } from './operands';
import { distinctOrdered } from './other-functions';

/**
 * `json_agg(x …)` collects like DuckDB's list aggregate, which keeps ORDER BY, DISTINCT, FILTER
 * and OVER (DuckDB's json_group_array is a macro and refuses them); to_json then renders the list.
 */
const jsonAgg: CallRule = {
  label: 'json_agg / jsonb_agg → to_json(list(…))',
  rewrite(call) {
    const end = callEnd(call.level, call.at + 1);
    const suffix = end > call.at + 1 ? ` ${call.level.text(call.at + 2, end)}` : '';
    return { sql: `to_json(list(${distinctOrdered(renderArgs(call))})${suffix})`, through: end };
  },
};

/**
 * `json_object_agg(k, v ORDER BY …)`: DuckDB's json_group_object is a macro that refuses ORDER BY,
 * DISTINCT, FILTER and OVER; a map of the collected pairs keeps them, and renders as an object.
 */
const jsonObjectAgg: CallRule = {
  label: 'json(b)_object_agg → to_json(map_from_entries(list(…)))',
  rewrite(call) {
    if (call.argNodes.length !== 2) return null;
    const order = /^([\s\S]*?)\s+(order\s+by\s[\s\S]*)$/i.exec(call.args[1]!);
    const [value, orderBy] = order ? [order[1]!, ` ${order[2]}`] : [call.args[1]!, ''];
    const end = callEnd(call.level, call.at + 1);
    const suffix = end > call.at + 1 ? ` ${call.level.text(call.at + 2, end)}` : '';
    return { sql: `to_json(map_from_entries(list({'key': CAST(${call.args[0]} AS VARCHAR), 'value': ${value}}${orderBy})${suffix}))`, through: end };
  },
};

/** Postgres names JSON types object, array, string, number, boolean and null. */
const jsonTypeof: CallRule = {
  label: 'json_typeof → json_type with Postgres names',
  rewrite(call) {
    if (call.argNodes.length !== 1) return null;
    const type = `json_type(${call.args[0]})`;
    return `CASE ${type} WHEN 'VARCHAR' THEN 'string' WHEN 'BIGINT' THEN 'number' WHEN 'UBIGINT' THEN 'number' WHEN 'DOUBLE' THEN 'number' WHEN 'HUGEINT' THEN 'number' ELSE lower(${type}) END`;
  },
};

/** `jsonb_extract_path(j, 'a', 'b')`: one JSONPath when the keys are literals, nested lookups otherwise. */
function extractPath(asText: boolean): CallRule {
  return {
    label: 'json_extract_path(_text) → json_extract(_string)',
    rewrite(call: Call) {
      if (call.argNodes.length < 2) return null;
      const keys = call.args.slice(1).map((_, i) => literalArgument(call, i + 1));
      const last = asText ? 'json_extract_string' : 'json_extract';
      if (keys.every((key): key is string => key !== null)) return `${last}(${call.args[0]}, ${sqlString(jsonPath(keys))})`;
      let expression = call.args[0]!;
      call.args.slice(1).forEach((key, i) => {
        expression = `${i === call.argNodes.length - 2 ? last : 'json_extract'}(${expression}, ${key})`;
      });
      return expression;
    },
  };
}

export const jsonFunctionRules: CallRules = {
  json_build_object: rename('json_object', 'json(b)_build_object → json_object'),
  jsonb_build_object: rename('json_object', 'json(b)_build_object → json_object'),
  json_build_array: rename('json_array', 'json(b)_build_array → json_array'),
  jsonb_build_array: rename('json_array', 'json(b)_build_array → json_array'),
  to_jsonb: rename('to_json', 'to_jsonb / array_to_json → to_json'),
  array_to_json: rename('to_json', 'to_jsonb / array_to_json → to_json'),
  json_agg: jsonAgg,
  jsonb_agg: jsonAgg,
  json_object_agg: jsonObjectAgg,
  jsonb_object_agg: jsonObjectAgg,
  json_typeof: jsonTypeof,
  jsonb_typeof: jsonTypeof,
  json_extract_path: extractPath(false),
  jsonb_extract_path: extractPath(false),
  json_extract_path_text: extractPath(true),
  jsonb_extract_path_text: extractPath(true),
};
