import { dateTimeFormats } from './cast-macros';

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
const invalid = (type: string, sqlstate = '22P02') => raise(sqlstate, `'invalid input syntax for type ${type}: "' || s || '"'`);
const outOfRange = (type: string) => raise('22003', `'value "' || s || '" is out of range for type ${type}'`);

const dateWords = `lower(trim(s)) IN ('today', 'tomorrow', 'yesterday', 'now', 'epoch', 'infinity', '-infinity', 'allballs')`;
/** Text that is no date or timestamp Postgres reads: not DuckDB's, not one of the spellings, not a special word. */
const noDate = (type: string) =>
  `TRY_CAST(s AS ${type}) IS NULL AND try_strptime(trim(s), ${dateTimeFormats}) IS NULL AND NOT ${dateWords}
    AND TRY_CAST(regexp_replace(trim(s), '^(\\S+[ T][0-9]{1,2}:[0-9]{2})([+-][0-9])', '\\1:00\\2') AS ${type}) IS NULL`;
const integerText = `regexp_full_match(s, '\\s*[+-]?[0-9]+\\s*')`;
const integer = (duckdb: string, type: string) =>
  `CASE WHEN NOT ${integerText} THEN ${invalid(type)} WHEN TRY_CAST(trim(s) AS ${duckdb}) IS NULL THEN ${outOfRange(type)} ELSE '' END`;
const number = (type: string) => `CASE WHEN TRY_CAST(trim(s) AS DOUBLE) IS NULL THEN ${invalid(type)} ELSE '' END`;
const dateTime = (duckdb: string, type: string) => `CASE WHEN ${noDate(duckdb)} THEN ${invalid(type, '22007')} ELSE '' END`;

/** Per DuckDB type of the witness: the check of one literal `s`, '' when Postgres reads it as that type. */
const readers: readonly (readonly [string, string])[] = [
  ['SMALLINT', integer('SMALLINT', 'smallint')],
  ['INTEGER', integer('INTEGER', 'integer')],
  ['BIGINT', integer('BIGINT', 'bigint')],
  ['HUGEINT', number('numeric')],
  ['DECIMAL', number('numeric')],
  ['DOUBLE', number('double precision')],
  ['FLOAT', number('real')],
  [
    'BOOLEAN',
    `CASE WHEN lower(trim(s)) IN ('t', 'tr', 'tru', 'true', 'y', 'ye', 'yes', 'on', '1', 'f', 'fa', 'fal', 'fals', 'false', 'n', 'no', 'of', 'off', '0') THEN '' ELSE ${invalid('boolean')} END`,
  ],
  ['DATE', dateTime('DATE', 'date')],
  ['TIMESTAMP', dateTime('TIMESTAMP', 'timestamp')],
  ['TIMESTAMPTZ', dateTime('TIMESTAMPTZ', 'timestamp with time zone')],
  ['TIME', `CASE WHEN TRY_CAST(s AS TIME) IS NULL AND NOT regexp_matches(s, '[0-9]') THEN ${invalid('time', '22007')} ELSE '' END`],
  ['INTERVAL', `CASE WHEN TRY_CAST(s AS INTERVAL) IS NULL AND NOT regexp_matches(s, '[0-9]') THEN ${invalid('interval', '22007')} ELSE '' END`],
  ['UUID', `CASE WHEN TRY_CAST(s AS UUID) IS NULL THEN ${invalid('uuid')} ELSE '' END`],
];

/**
 * x, once every untyped literal of the list reads as the witness' type (the typed items' common type,
 * `[a, b][1]`). An overload per type, so that DuckDB binds only the check of the witness' own type:
 * text, and a type known only later (an aggregate's), costs nothing. (No JSON overload: DuckDB would
 * take it for a number, which casts to JSON.)
 */
const untyped = `pgx_untyped(x, w VARCHAR, literals) AS x, ${readers
  .map(
    ([type, check]) => `(x, w ${type}, literals) AS CASE WHEN regexp_matches('', array_to_string(list_transform(literals, lambda s: ${check}), '')) THEN x END`,
  )
  .join(', ')}, (x, w, literals) AS x`;

export const typeResolutionDefinitions: readonly string[] = [
  untyped,
  `pgx_array_type_name(a) AS CASE regexp_replace(typeof(a), '\\(.*?\\)', '') WHEN 'INTEGER[]' THEN 'integer[]' WHEN 'BIGINT[]' THEN 'bigint[]' WHEN 'SMALLINT[]' THEN 'smallint[]'
    WHEN 'DECIMAL[]' THEN 'numeric[]' WHEN 'DOUBLE[]' THEN 'double precision[]' WHEN 'FLOAT[]' THEN 'real[]' WHEN 'VARCHAR[]' THEN 'text[]' WHEN 'BOOLEAN[]' THEN 'boolean[]'
    WHEN 'DATE[]' THEN 'date[]' ELSE lower(typeof(a)) END`,
  // x, once two arrays compared by op have one element type (Postgres has no operator between integer[] and bigint[]).
  `pgx_array_pair(x, l, r, op) AS CASE WHEN regexp_matches('', CASE WHEN regexp_replace(typeof(l), '\\(.*?\\)', '') = regexp_replace(typeof(r), '\\(.*?\\)', '') OR contains(typeof(l) || typeof(r), '"NULL"') THEN ''
    ELSE ${raise('42883', `'operator does not exist: ' || pgx_array_type_name(l) || ' ' || op || ' ' || pgx_array_type_name(r)`)} END) THEN x END`,
];
