import type { Difference } from './compare';

/**
 * The suite's queries whose answers differ from Postgres', each with how and why; the dialect's
 * README lists the same differences by kind. A query here must differ exactly so: a fix removes it.
 */
export const knownDifferences: Readonly<Record<string, { differs: readonly Difference[]; reason: string }>> = {
  "SELECT 'a' || NULL": { differs: ["types"], reason: "a constant NULL in ||: DuckDB folds the expression to a NULL typed integer (the value, NULL, is Postgres' own)" },
  "SELECT (ARRAY[1, 2])[1:2][1]": { differs: ["refused"], reason: "a slice followed by a subscript reads a multi-dimensional array in Postgres; DuckDB's lists would answer a slice of a slice, so it is refused (0A000)" },
  "SELECT * FROM (SELECT 1 + 1, 'a' || 'b', now() IS NOT NULL) s": { differs: ["names"], reason: "columns of one derived table with the same name (a subquery's, unnest's of several arrays): SELECT * shows DuckDB's renamed ones (?column?_1, unnest_1)" },
  "SELECT * FROM (SELECT 1, 2) s": { differs: ["names"], reason: "columns of one derived table with the same name (a subquery's, unnest's of several arrays): SELECT * shows DuckDB's renamed ones (?column?_1, unnest_1)" },
  "SELECT * FROM unnest(ARRAY[1, 2], ARRAY[true]) ORDER BY 1": { differs: ["names"], reason: "columns of one derived table with the same name (a subquery's, unnest's of several arrays): SELECT * shows DuckDB's renamed ones (?column?_1, unnest_1)" },
};
