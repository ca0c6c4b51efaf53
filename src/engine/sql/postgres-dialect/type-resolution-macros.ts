/**
 * Checks DuckDB evaluates while it binds a statement, before any row is read, as Postgres makes them
 * while it analyses one (see type-resolution.ts). A check is an expression over literals and
 * `typeof(…)` only, which DuckDB folds; it is made the pattern of `regexp_matches('', …)`, whose bind
 * evaluates a constant pattern, so a check that fails raises then. It fails by a cast of
 * `'[SQLSTATE] message'` to an integer (error() is volatile and never evaluated while binding), which
 * postgres-errors.ts reads as the Postgres error; a check that passes is the empty pattern, which
 * matches, and `CASE WHEN true THEN x END` is folded to `x`.
 */

/** Raises `[sqlstate] message` (SQL text) while binding; a VARCHAR, for a CASE's branches. */
const raise = (sqlstate: string, message: string) => `CAST(CAST('[${sqlstate}] ' || ${message} AS INTEGER) AS VARCHAR)`;
/** The message `[sqlstate] …` a failed reading names (raised once, by pgx_untyped: an error caught while DuckDB folds each branch costs). */
const failed = (sqlstate: string, message: string) => `'[${sqlstate}] ' || ${message}`;
const invalid = (type: string, sqlstate = '22P02') => failed(sqlstate, `'invalid input syntax for type ${type}: "' || s || '"'`);
const outOfRange = (type: string) => failed('22003', `'value "' || s || '" is out of range for type ${type}'`);

const dateWords = `lower(trim(s)) IN ('today', 'tomorrow', 'yesterday', 'now', 'epoch', 'infinity', '-infinity', 'allballs')`;
/** No digit at all: text no date, time or interval spelling Postgres reads (beyond its special words). */
const noDigit = `translate(s, '0123456789', '') = s`;
const noDateTime = (duckdb: string, type: string) =>
  `CASE WHEN TRY_CAST(s AS ${duckdb}) IS NULL AND ${noDigit} AND NOT ${dateWords} THEN ${invalid(type, '22007')} ELSE '' END`;
const integer = (duckdb: string, type: string) =>
  `CASE WHEN translate(trim(s), '+-0123456789', '') <> '' OR TRY_CAST(trim(s) AS HUGEINT) IS NULL THEN ${invalid(type)} WHEN TRY_CAST(trim(s) AS ${duckdb}) IS NULL THEN ${outOfRange(type)} ELSE '' END`;
const number = (type: string) => `CASE WHEN TRY_CAST(trim(s) AS DOUBLE) IS NULL THEN ${invalid(type)} ELSE '' END`;

/**
 * Per DuckDB type of the witness (typeof's name): the check of one literal `s`, '' when Postgres
 * reads it as that type. Binding a check costs: no regular expression and no list of formats here,
 * and a date is refused only when it has no digit (`'n/a'`, `'never'`).
 */
const readers: readonly (readonly [string, string])[] = [
  ["t = 'SMALLINT'", integer('SMALLINT', 'smallint')],
  ["t = 'INTEGER'", integer('INTEGER', 'integer')],
  ["t = 'BIGINT'", integer('BIGINT', 'bigint')],
  [
    "t IN ('HUGEINT', 'DOUBLE', 'FLOAT') OR t LIKE 'DECIMAL%'",
    number(`' || CASE t WHEN 'DOUBLE' THEN 'double precision' WHEN 'FLOAT' THEN 'real' ELSE 'numeric' END || '`),
  ],
  [
    "t = 'BOOLEAN'",
    `CASE WHEN lower(trim(s)) IN ('t', 'tr', 'tru', 'true', 'y', 'ye', 'yes', 'on', '1', 'f', 'fa', 'fal', 'fals', 'false', 'n', 'no', 'of', 'off', '0') THEN '' ELSE ${invalid('boolean')} END`,
  ],
  ["t = 'DATE'", noDateTime('DATE', 'date')],
  ["t = 'TIMESTAMP'", noDateTime('TIMESTAMP', 'timestamp')],
  ["t = 'TIMESTAMP WITH TIME ZONE'", noDateTime('TIMESTAMPTZ', 'timestamp with time zone')],
  ["t = 'TIME'", noDateTime('TIME', 'time')],
  ["t = 'INTERVAL'", noDateTime('INTERVAL', 'interval')],
  ["t = 'UUID'", `CASE WHEN TRY_CAST(s AS UUID) IS NULL THEN ${invalid('uuid')} ELSE '' END`],
];

export const typeResolutionDefinitions: readonly string[] = [
  `pgx_untyped_read(t, s) AS CASE ${readers.map(([test, check]) => `WHEN ${test} THEN ${check}`).join(' ')} ELSE '' END`,
  // x, once every untyped literal of the list reads as the witness' type (the typed items' common type, `[a, b][1]`).
  // Binding the check costs about 2 ms, so text, which reads every literal, has an overload that is x alone; DuckDB
  // also takes it for a type it does not know yet (an aggregate's, a correlated column's), which is then not checked.
  `pgx_untyped(x, w VARCHAR, literals) AS x, (x, w, literals) AS CASE WHEN regexp_matches('', list_transform([list_filter(list_transform(literals, lambda __s: pgx_untyped_read(typeof(w), __s)), lambda __m: __m <> '')],
    lambda __f: CASE WHEN len(__f) = 0 THEN '' ELSE CAST(CAST(__f[1] AS INTEGER) AS VARCHAR) END)[1]) THEN x END`,
  `pgx_array_type_name(a) AS CASE regexp_replace(typeof(a), '\\(.*?\\)', '') WHEN 'INTEGER[]' THEN 'integer[]' WHEN 'BIGINT[]' THEN 'bigint[]' WHEN 'SMALLINT[]' THEN 'smallint[]'
    WHEN 'DECIMAL[]' THEN 'numeric[]' WHEN 'DOUBLE[]' THEN 'double precision[]' WHEN 'FLOAT[]' THEN 'real[]' WHEN 'VARCHAR[]' THEN 'text[]' WHEN 'BOOLEAN[]' THEN 'boolean[]'
    WHEN 'DATE[]' THEN 'date[]' ELSE lower(typeof(a)) END`,
  // x, once two arrays compared by op have one element type (Postgres has no operator between integer[] and bigint[]).
  `pgx_array_pair(x, l, r, op) AS CASE WHEN regexp_matches('', CASE WHEN regexp_replace(typeof(l), '\\(.*?\\)', '') = regexp_replace(typeof(r), '\\(.*?\\)', '') OR contains(typeof(l) || typeof(r), '"NULL"') THEN ''
    ELSE ${raise('42883', `'operator does not exist: ' || pgx_array_type_name(l) || ' ' || op || ' ' || pgx_array_type_name(r)`)} END) THEN x END`,
];
