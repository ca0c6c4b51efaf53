import { canonicalJson, canonicalTime, canonicalTimestamp, num, type Canonical } from './canonical';
import { isoInterval } from './postgres-values';

/** Oxbow's values (DuckDB type names, JSON-shaped values) as canonical ones. */
export function canonicalOxbow(value: unknown, type: string): Canonical {
  if (value === null || value === undefined) return null;
  if (type.endsWith('[]') && Array.isArray(value)) return value.map((item: unknown) => canonicalOxbow(item, type.slice(0, -2)));
  const base = type.replace(/\(.*$/s, '');
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL)$/.test(base)) {
    return num(value as number | string);
  }
  // JSON values arrive parsed, as the API returns them.
  if (type === 'JSON') return { json: canonicalJson(value) };
  if (type === 'DATE') return `date:${String(value)}`;
  if (type.startsWith('TIMESTAMP')) return canonicalTimestamp(String(value).replace(/Z$/, ''));
  if (type === 'TIME') return canonicalTime(String(value));
  if (type === 'INTERVAL') return isoInterval(String(value));
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  // Structs and other nested values: compared as the JSON they are.
  return canonicalJson(value);
}
