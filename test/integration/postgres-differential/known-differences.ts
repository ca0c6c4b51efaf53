import type { Difference } from './compare';

/**
 * The suite's queries whose answers differ from Postgres', each with how and why; the dialect's
 * README lists the same differences by kind. A query here must differ exactly so: a fix removes it.
 */
const sameNames =
  "columns of one derived table with the same name (a subquery's, unnest's of several arrays): SELECT * shows DuckDB's renamed ones (?column?_1, unnest_1)";
const textAgainstNumber =
  "a text column compared with a number: Postgres has no such operator (42883); DuckDB casts the column's text to the number and refuses a value that is none (22P02)";
const jsonPathFilters =
  "a JSONPath filter or predicate (? (…), @?, @@): DuckDB's json_extract reads keys, wildcards and positions only, so the call is left to DuckDB, which has no such function or operator";

export const knownDifferences: Readonly<Record<string, { differs: readonly Difference[]; reason: string }>> = {
  'SELECT (ARRAY[1, 2])[1:2][1]': {
    differs: ['refused'],
    reason:
      "a slice followed by a subscript reads a multi-dimensional array in Postgres; DuckDB's lists would answer a slice of a slice, so it is refused (0A000)",
  },
  "SELECT * FROM (SELECT 1 + 1, 'a' || 'b', now() IS NOT NULL) s": { differs: ['names'], reason: sameNames },
  'SELECT * FROM (SELECT 1, 2) s': { differs: ['names'], reason: sameNames },
  'SELECT * FROM unnest(ARRAY[1, 2], ARRAY[true]) ORDER BY 1': { differs: ['names'], reason: sameNames },
  'SELECT id FROM shop.orders WHERE status = 1': { differs: ['sqlstate'], reason: textAgainstNumber },
  'SELECT nullif(status, 1) FROM shop.orders': { differs: ['sqlstate'], reason: textAgainstNumber },
  'SELECT id FROM shop.events WHERE kind IN (1, 2)': { differs: ['sqlstate'], reason: textAgainstNumber },
  "SELECT status -> 'a' FROM shop.orders": {
    differs: ['sqlstate'],
    reason: 'an arrow on a text column: Postgres has no -> for text (42883); DuckDB reads the text as JSON and refuses it as malformed (22P02)',
  },
  'SELECT NULL UNION SELECT NULL': {
    differs: ['types'],
    reason: "a set operation of untyped NULLs only: DuckDB types the column as an integer, Postgres as text (the value, NULL, is Postgres' own)",
  },
  "SELECT 'NaN'::numeric > 1": { differs: ['refused'], reason: "DuckDB's DECIMAL has no NaN, so the text is refused as no number (22P02)" },
  'SELECT ARRAY[1, 2] || ARRAY[[3, 4]]': {
    differs: ['refused'],
    reason: 'an array joined to an array of arrays: a DuckDB list of lists is another type than a list, and || refuses to join them',
  },
  'SELECT id FROM shop.numbers WHERE (a, b) = (SELECT 7, 2)': {
    differs: ['refused'],
    reason: 'a row compared with a row subquery: a DuckDB subquery used as a value returns one column',
  },
  'WITH RECURSIVE p(n, path) AS (SELECT 1, ARRAY[1] UNION ALL SELECT n + 1, path || (n + 1) FROM p WHERE n < 4) SELECT n, path FROM p ORDER BY n': {
    differs: ['refused'],
    reason:
      "|| of a column that is an array (not visibly one) and an element: DuckDB's || joins two lists only, and the translation cannot see that path is an array",
  },
  'SELECT jsonb_object_keys(profile) k, count(*) FROM shop.customers GROUP BY k ORDER BY k': {
    differs: ['refused'],
    reason: 'a set-returning function in the SELECT list grouped by its own alias: DuckDB refuses to unnest there',
  },
  "SELECT to_char(interval '3 hours 25 minutes', 'HH24:MI')": {
    differs: ['refused'],
    reason: "to_char of an interval: DuckDB's strftime takes dates and timestamps only",
  },
  'SELECT jsonb_path_exists(\'{"name": "kit", "tags": ["a", "b"], "dims": {"w": 2, "h": 3.5}, "gone": null, "n": 10}\'::jsonb, \'$.dims ? (@.w > 1)\')': {
    differs: ['refused'],
    reason: jsonPathFilters,
  },
  'SELECT \'{"name": "kit", "tags": ["a", "b"], "dims": {"w": 2, "h": 3.5}, "gone": null, "n": 10}\'::jsonb @? \'$.tags[*] ? (@ == "b")\'': {
    differs: ['refused'],
    reason: jsonPathFilters,
  },
  'SELECT \'{"name": "kit", "tags": ["a", "b"], "dims": {"w": 2, "h": 3.5}, "gone": null, "n": 10}\'::jsonb @@ \'$.n > 5\'': {
    differs: ['refused'],
    reason: jsonPathFilters,
  },
};
