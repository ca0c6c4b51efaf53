import { parseArrayText } from './pg-array-literal';

/**
 * A JSONPath for DuckDB from the keys of a Postgres path (`'{a,b,0}'` or `jsonb_extract_path`
 * arguments). Whole numbers are array positions, as Postgres reads them on arrays; a negative one
 * counts from the end.
 */
export function jsonPath(keys: readonly string[]): string {
  let path = '$';
  for (const key of keys) {
    if (/^-?[0-9]+$/.test(key)) path += Number(key) < 0 ? `[#${key}]` : `[${Number(key)}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) path += `.${key}`;
    else path += `."${key.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  }
  return path;
}

/** The keys of a Postgres text-array path literal such as `{a,b,"c d"}`, or null when it is not one. */
export function pathKeys(text: string): string[] | null {
  const items = parseArrayText(text);
  if (items === null || !items.every((item): item is string => typeof item === 'string')) return null;
  return items;
}
