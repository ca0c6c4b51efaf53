import { parseArrayText, type ArrayItem } from '../../../src/engine/sql/postgres-dialect/pg-array-literal';
import { canonicalInterval, canonicalJson, canonicalTime, canonicalTimestamp, num, type Canonical } from './canonical';

/**
 * Postgres values as canonical ones, read from the text form (postgres' `.raw()` rows) by type OID
 * so that nothing is lost on the way: numerics keep their digits, timestamps their microseconds.
 * The session must use `IntervalStyle = iso_8601` and `TimeZone = UTC`.
 */
const numeric = new Set([20, 21, 23, 26, 700, 701, 1700]);
const arrayElements: Readonly<Record<number, number>> = {
  1000: 16,
  1005: 21,
  1007: 23,
  1016: 20,
  1021: 700,
  1022: 701,
  1231: 1700,
  1009: 25,
  1015: 1043,
  1014: 1042,
  1182: 1082,
  1115: 1114,
  1185: 1184,
  1183: 1083,
  1187: 1186,
  199: 114,
  3807: 3802,
  2951: 2950,
};

export function canonicalPostgres(text: string | null, oid: number): Canonical {
  if (text === null) return null;
  const element = arrayElements[oid];
  if (element !== undefined) {
    const items = parseArrayText(text);
    return items === null ? text : items.map((item) => canonicalArrayItem(item, element));
  }
  if (numeric.has(oid)) return num(text === 'NaN' ? Number.NaN : text);
  switch (oid) {
    case 16:
      return text === 't';
    case 114:
    case 3802: {
      // JSON's own null reads as NULL through the API (JSON output has one null for both).
      const parsed: unknown = JSON.parse(text);
      return parsed === null ? null : { json: canonicalJson(parsed) };
    }
    case 1082:
      return `date:${text}`;
    case 1114:
    case 1184:
      return canonicalTimestamp(text);
    case 1083:
      return canonicalTime(text);
    case 1186:
      return isoInterval(text);
    default:
      return text;
  }
}

function canonicalArrayItem(item: ArrayItem, oid: number): Canonical {
  if (item === null) return null;
  if (Array.isArray(item)) return item.map((inner) => canonicalArrayItem(inner, oid));
  return canonicalPostgres(item, oid);
}

/** `P1Y2M3DT4H5M6.5S` (IntervalStyle iso_8601; any part may be negative). */
export function isoInterval(text: string): Canonical {
  const match = /^P(?:(-?\d+)Y)?(?:(-?\d+)M)?(?:(-?\d+)W)?(?:(-?\d+)D)?(?:T(?:(-?\d+)H)?(?:(-?\d+)M)?(?:(-?[\d.]+)S)?)?$/.exec(text);
  if (!match) return `interval:${text}`;
  const part = (index: number) => Number(match[index] ?? 0);
  const micros = Math.round(part(5) * 3_600_000_000 + part(6) * 60_000_000 + part(7) * 1_000_000);
  return canonicalInterval(part(1) * 12 + part(2), part(3) * 7 + part(4), micros);
}
