import type { Difference } from './compare';

/**
 * The suite's queries whose answers differ from Postgres', each with how and why; the dialect's
 * README lists the same differences by kind. A query here must differ exactly so: a fix removes it.
 */
export const knownDifferences: Readonly<Record<string, { differs: readonly Difference[]; reason: string }>> = {
  "SELECT '0.1'::float4 = 0.1": { differs: ["values"], reason: "DuckDB computes it differently" },
  "SELECT 'a' || NULL": { differs: ["types"], reason: "DuckDB computes it differently" },
  "SELECT (ARRAY[1, 2])[1:2][1]": { differs: ["refused"], reason: "DuckDB computes it differently" },
  "SELECT * FROM (SELECT 1 + 1, 'a' || 'b', now() IS NOT NULL) s": { differs: ["names"], reason: "columns of one subquery with the same name: DuckDB renames the second (?column?_1)" },
  "SELECT * FROM (SELECT 1, 2) s": { differs: ["names"], reason: "columns of one subquery with the same name: DuckDB renames the second (?column?_1)" },
};
