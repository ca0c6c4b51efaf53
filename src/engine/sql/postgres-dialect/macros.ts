/**
 * Macros that give the translation Postgres' arithmetic and errors where DuckDB's differ, created
 * on every connection of a workspace's instance (as temporary macros: the `temp` catalog is on every
 * connection's search path, whatever catalog it uses). Each is expanded when DuckDB binds the
 * statement; a test on `typeof(x)` is folded away then, so a macro costs nothing per row where its
 * Postgres rule does not apply. They raise Postgres' errors as `error('[SQLSTATE] message')`, which
 * postgres-errors.ts reads.
 */
const floatTypes = `typeof(x) IN ('DOUBLE', 'FLOAT')`;

const definitions: readonly string[] = [
  // A divisor: Postgres raises division by zero for every numeric type (DuckDB answers NULL or Infinity).
  `pgx_divisor(x) AS CASE WHEN x = 0 THEN error('[22012] division by zero') ELSE x END`,
  // sum() of smallint/integer is bigint in Postgres and of bigint numeric: a sum of bigints divides exactly.
  `pgx_sum_arg(x TINYINT) AS x, (x SMALLINT) AS x, (x INTEGER) AS x, (x BIGINT) AS CAST(x AS DECIMAL(38, 0)), (x) AS x`,
  // round(double precision) rounds halves to even in Postgres, round(numeric) away from zero.
  `pgx_round(x) AS CASE WHEN ${floatTypes} AND x - floor(x) = 0.5 THEN CASE WHEN floor(x) % 2 = 0 THEN floor(x) ELSE ceil(x) END ELSE round(x) END`,
  // max() and min() take no boolean in Postgres.
  `pgx_ordered(x, name) AS CASE WHEN typeof(x) = 'BOOLEAN' THEN error('[42883] function ' || name || '(boolean) does not exist') ELSE x END`,
  // date_trunc() of a date is a timestamp with time zone in Postgres (the date is read as one).
  `pgx_date_trunc(field, x DATE) AS date_trunc(field, CAST(x AS TIMESTAMPTZ)), (field, x) AS date_trunc(field, x)`,
  // generate_series' step may not be zero.
  `pgx_step(x) AS CASE WHEN x = 0 THEN error('[22023] step size cannot equal zero') ELSE x END`,
];

/** The statement that creates the macros on one connection. */
export const postgresMacros = definitions.map((definition) => `CREATE OR REPLACE TEMP MACRO ${definition};`).join('\n');
