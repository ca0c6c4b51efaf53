import type { Difference } from './compare';

/**
 * The suite's queries whose answers differ from Postgres', each with how and why; the dialect's
 * README lists the same differences by kind. A query here must differ exactly so: a fix removes it.
 */
export const knownDifferences: Readonly<Record<string, { differs: readonly Difference[]; reason: string }>> = {
  "SELECT '\"str\"'::jsonb ->> 0": { differs: ["values"], reason: "jsonb compares as text in DuckDB, not by value (1 = 1.0 and key order)" },
  "SELECT '0.1'::float4 = 0.1": { differs: ["values"], reason: "DuckDB computes it differently" },
  "SELECT 'a' || NULL": { differs: ["types"], reason: "DuckDB computes it differently" },
  "SELECT 'abc' LIKE ALL (ARRAY['a%', '%c'])": { differs: ["refused"], reason: "LIKE ANY/ALL (array): not translated yet" },
  "SELECT 'abc' LIKE ANY (ARRAY['a%', 'z%'])": { differs: ["refused"], reason: "LIKE ANY/ALL (array): not translated yet" },
  "SELECT (1, 2)": { differs: ["values"], reason: "row values: DuckDB returns a struct and names it differently" },
  "SELECT (ARRAY[1, 2])[1:2][1]": { differs: ["values"], reason: "DuckDB computes it differently" },
  "SELECT * FROM (SELECT 1 + 1, 'a' || 'b', now() IS NOT NULL) s": { differs: ["names"], reason: "columns of one subquery with the same name: DuckDB renames the second (?column?_1)" },
  "SELECT * FROM (SELECT 1, 2) s": { differs: ["names"], reason: "columns of one subquery with the same name: DuckDB renames the second (?column?_1)" },
  "SELECT * FROM unnest(ARRAY['a', 'b'], ARRAY[1, 2, 3]) AS t(s, n)": { differs: ["refused"], reason: "not translated yet: DuckDB has no such function or syntax" },
  "SELECT 0 || ARRAY[1, 2]": { differs: ["refused"], reason: "array || element: DuckDB's || concatenates lists only" },
  "SELECT 1 UNION SELECT 'a'": { differs: ["answered"], reason: "UNION of unmatched types: DuckDB converts both sides to text where Postgres refuses" },
  "SELECT 1 UNION SELECT true": { differs: ["answered"], reason: "UNION of unmatched types: DuckDB converts both sides to text where Postgres refuses" },
  "SELECT 5 # 3": { differs: ["refused"], reason: "Postgres-only numeric functions and operators (scale, min_scale, trim_scale, |/, #)" },
  "SELECT ARRAY['x'] || 'y'::text": { differs: ["refused"], reason: "array || element: DuckDB's || concatenates lists only" },
  "SELECT ARRAY[1, 2] || 3": { differs: ["refused"], reason: "array || element: DuckDB's || concatenates lists only" },
  "SELECT ROW(1, 'a')": { differs: ["values"], reason: "row values: DuckDB returns a struct and names it differently" },
  "SELECT array_dims(ARRAY[1, 2, 3])": { differs: ["refused"], reason: "multi-dimensional array functions: DuckDB lists are one-dimensional" },
  "SELECT array_dims(ARRAY[[1, 2], [3, 4]])": { differs: ["refused"], reason: "multi-dimensional array functions: DuckDB lists are one-dimensional" },
  "SELECT array_length(ARRAY[[1, 2], [3, 4]], 2)": { differs: ["refused"], reason: "multi-dimensional array functions: DuckDB lists are one-dimensional" },
  "SELECT array_positions(ARRAY[1, 2, 1], 1)": { differs: ["refused"], reason: "multi-dimensional array functions: DuckDB lists are one-dimensional" },
  "SELECT id FROM shop.orders UNION SELECT status FROM shop.orders": { differs: ["answered"], reason: "UNION of unmatched types: DuckDB converts both sides to text where Postgres refuses" },
  "SELECT id FROM shop.orders WHERE status LIKE ANY (ARRAY['ship%', 'ref%']) ORDER BY id": { differs: ["refused"], reason: "LIKE ANY/ALL (array): not translated yet" },
  "SELECT id FROM shop.orders WHERE total": { differs: ["answered"], reason: "Postgres refuses it; DuckDB answers (overflow, a domain error, or an implicit cast Postgres does not make)" },
  "SELECT id, ARRAY[a] || b FROM shop.numbers ORDER BY id": { differs: ["refused"], reason: "array || element: DuckDB's || concatenates lists only" },
  "SELECT id, profile -> 'langs' ? 'en' FROM shop.customers ORDER BY id": { differs: ["values"], reason: "j ? 'k' tests object keys only, not the string elements of an array" },
  "SELECT sqrt(-1)": { differs: ["sqlstate"], reason: "both refuse the query; DuckDB's error is not mapped to Postgres' SQLSTATE (catalog, binder and function errors keep the service's own codes)" },
  "SELECT sum('a')": { differs: ["sqlstate"], reason: "aggregates of a type Postgres has none for (avg of a date, sum of text): DuckDB casts" },
  "SELECT to_date('2024-13-01', 'YYYY-MM-DD')": { differs: ["sqlstate"], reason: "both refuse the query; DuckDB's error is not mapped to Postgres' SQLSTATE (catalog, binder and function errors keep the service's own codes)" },
  "SELECT total FROM shop.orders UNION ALL SELECT note FROM shop.orders": { differs: ["answered"], reason: "UNION of unmatched types: DuckDB converts both sides to text where Postgres refuses" },
  "SELECT |/ 25.0": { differs: ["refused"], reason: "Postgres-only numeric functions and operators (scale, min_scale, trim_scale, |/, #)" },
};
