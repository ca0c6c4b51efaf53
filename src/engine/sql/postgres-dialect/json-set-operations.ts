import { postgresError } from '../postgres-errors';
import { operationsOf } from './set-operations';

/** A select item visibly of type json (not jsonb): a cast to json or a function that returns json. */
const jsonItem = /::\s*json\s*$|^(json_build_object|json_build_array|json_agg|json_object_agg|json_object|to_json|row_to_json|array_to_json)\s*\(/i;
const alias = /\s+as\s+("(?:[^"]|"")*"|\w+)\s*$/i;

/**
 * `SELECT j::json UNION SELECT …`: json has no equality in Postgres, so a UNION, INTERSECT or EXCEPT
 * that drops repeated rows refuses it (42883); DuckDB's JSON is jsonb too and compares it. Read from
 * the statement as written, where json and jsonb are still apart.
 */
export function refuseJsonRowComparison(sql: string): void {
  if (!/\bjson/i.test(sql) || !/\b(union|intersect|except)\b/i.test(sql)) return;
  for (const operation of operationsOf(sql)) {
    if (!operation.distinct) continue;
    const json = operation.texts.some((items) => items?.some((item) => jsonItem.test(item.replace(alias, ''))));
    if (json) throw postgresError('42883', 'could not identify an equality operator for type json');
  }
}
