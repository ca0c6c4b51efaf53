import { castDefinitions } from './cast-macros';
import { functionDefinitions } from './function-macros';
import { jsonDefinitions } from './json-macros';
import { numericDivisionDefinitions } from './numeric-division-macros';
import { typeResolutionDefinitions } from './type-resolution-macros';

/**
 * Macros that give the translation Postgres' arithmetic and errors where DuckDB's differ, created
 * once per workspace instance, when a statement first calls them, in the schema every connection
 * searches (see macrosFor). Each is expanded when DuckDB binds the
 * statement; a test on `typeof(x)` is folded away then, so a macro costs nothing per row where its
 * Postgres rule does not apply. They raise Postgres' errors as `error('[SQLSTATE] message')`, which
 * postgres-errors.ts reads.
 */
const floatTypes = `typeof(x) IN ('DOUBLE', 'FLOAT')`;

/** Postgres' reserved key words, which quote_ident quotes. */
const reservedWords = [
  'all',
  'analyse',
  'analyze',
  'and',
  'any',
  'array',
  'as',
  'asc',
  'asymmetric',
  'both',
  'case',
  'cast',
  'check',
  'collate',
  'column',
  'constraint',
  'create',
  'current_catalog',
  'current_date',
  'current_role',
  'current_time',
  'current_timestamp',
  'current_user',
  'default',
  'deferrable',
  'desc',
  'distinct',
  'do',
  'else',
  'end',
  'except',
  'false',
  'fetch',
  'for',
  'foreign',
  'from',
  'grant',
  'group',
  'having',
  'in',
  'initially',
  'intersect',
  'into',
  'lateral',
  'leading',
  'limit',
  'localtime',
  'localtimestamp',
  'not',
  'null',
  'offset',
  'on',
  'only',
  'or',
  'order',
  'placing',
  'primary',
  'references',
  'returning',
  'select',
  'session_user',
  'some',
  'symmetric',
  'table',
  'then',
  'to',
  'trailing',
  'true',
  'union',
  'unique',
  'user',
  'using',
  'variadic',
  'when',
  'where',
  'window',
  'with',
]
  .map((word) => `'${word}'`)
  .join(', ');

/** DuckDB's type names as Postgres spells its own. */
const postgresTypeNames = `CASE regexp_replace(typeof(x), '\\(.*', '') WHEN 'INTEGER' THEN 'integer' WHEN 'BIGINT' THEN 'bigint' WHEN 'SMALLINT' THEN 'smallint' WHEN 'HUGEINT' THEN 'bigint'
  WHEN 'DECIMAL' THEN 'numeric' WHEN 'DOUBLE' THEN 'double precision' WHEN 'FLOAT' THEN 'real' WHEN 'VARCHAR' THEN 'text' WHEN 'BOOLEAN' THEN 'boolean' WHEN 'DATE' THEN 'date'
  WHEN 'TIMESTAMP' THEN 'timestamp without time zone' WHEN 'TIMESTAMP WITH TIME ZONE' THEN 'timestamp with time zone' WHEN 'INTERVAL' THEN 'interval' WHEN 'TIME' THEN 'time without time zone'
  WHEN 'JSON' THEN 'jsonb' WHEN 'INTEGER[]' THEN 'integer[]' WHEN 'VARCHAR[]' THEN 'text[]' WHEN 'BIGINT[]' THEN 'bigint[]' WHEN 'BLOB' THEN 'bytea' WHEN 'UUID' THEN 'uuid'
  ELSE lower(typeof(x)) END`;

const definitions: readonly string[] = [
  // A divisor: Postgres raises division by zero for every numeric type (DuckDB answers NULL or Infinity).
  `pgx_divisor(x) AS CASE WHEN x = 0 THEN error('[22012] division by zero') ELSE x END`,
  // sum() of smallint/integer is bigint in Postgres and of bigint numeric: a sum of bigints divides exactly.
  `pgx_sum_arg(x TINYINT) AS x, (x SMALLINT) AS x, (x INTEGER) AS x, (x BIGINT) AS CAST(x AS DECIMAL(38, 0)), (x) AS CASE WHEN typeof(x) = 'BOOLEAN' THEN error('[42883] function sum(boolean) does not exist') ELSE x END`,
  // round(double precision) rounds halves to even in Postgres, round(numeric) away from zero.
  `pgx_round(x) AS CASE WHEN ${floatTypes} AND x - floor(x) = 0.5 THEN CASE WHEN floor(x) % 2 = 0 THEN floor(x) ELSE ceil(x) END ELSE round(x) END`,
  // max() and min() take no boolean in Postgres.
  `pgx_ordered(x, name) AS CASE WHEN typeof(x) = 'BOOLEAN' THEN error('[42883] function ' || name || '(boolean) does not exist') ELSE x END`,
  // date_trunc() of a date is a timestamp with time zone in Postgres (the date is read as one).
  `pgx_date_trunc(field, x DATE) AS date_trunc(field, CAST(x AS TIMESTAMPTZ)), (field, x) AS date_trunc(field, x)`,
  // Centuries and millennia begin with their year 1: DuckDB truncates 2024 to 2000, Postgres to 2001.
  `pgx_date_trunc_from_one(x, n) AS pgx_date_trunc('year', x) + to_years(CAST(((year(x) + n - 1) // n) * n - (n - 1) - year(x) AS INTEGER))`,
  // extract() of a time-of-day field refuses a date.
  `pgx_time_field_of(x DATE, unit) AS CAST(error('[0A000] unit "' || unit || '" not supported for type date') AS TIMESTAMP), (x, unit) AS x`,
  // Postgres' quoting functions: an identifier stays bare only when it is a lower-case name that is no reserved word.
  `quote_ident(x) AS CAST(CASE WHEN regexp_full_match(CAST(x AS VARCHAR), '[a-z_][a-z0-9_$]*') AND CAST(x AS VARCHAR) NOT IN (${reservedWords}) THEN CAST(x AS VARCHAR) ELSE '"' || replace(CAST(x AS VARCHAR), '"', '""') || '"' END AS VARCHAR)`,
  `quote_literal(x) AS CAST(CASE WHEN contains(CAST(x AS VARCHAR), '\\') THEN 'E''' || replace(replace(CAST(x AS VARCHAR), '\\', '\\\\'), '''', '''''') || '''' ELSE '''' || replace(CAST(x AS VARCHAR), '''', '''''') || '''' END AS VARCHAR)`,
  `quote_nullable(x) AS CAST(coalesce(quote_literal(x), 'NULL') AS VARCHAR)`,
  // pg_typeof names Postgres' types (DuckDB's names its own).
  `pgx_typeof(x) AS ${postgresTypeNames}`,
  // % takes integers and numeric: of a double Postgres has no operator.
  `pgx_modulo_of(x) AS CASE WHEN ${floatTypes} THEN error('[42883] operator does not exist: ' || pgx_typeof(x) || ' % integer') ELSE x END`,
  // WHERE takes a boolean (or NULL) and nothing else.
  `pgx_where(x) AS CASE WHEN typeof(x) IN ('BOOLEAN', '"NULL"') THEN x ELSE error('[42804] argument of WHERE must be type boolean, not type ' || pgx_typeof(x)) END`,
  // generate_series' step may not be zero.
  `pgx_step(x) AS CASE WHEN x = x - x THEN error('[22023] step size cannot equal zero') ELSE x END`,
];

const allDefinitions = [
  ...definitions,
  ...castDefinitions,
  ...functionDefinitions,
  ...jsonDefinitions,
  ...typeResolutionDefinitions,
  ...numericDivisionDefinitions,
];
/** Each macro's name and definition, in an order where every macro comes after those it calls. */
export const macroDefinitions: ReadonlyMap<string, string> = new Map(
  allDefinitions.map((definition) => [/^(\w+)/.exec(definition)![1]!.toLowerCase(), definition]),
);
const called = new RegExp(`\\b(${[...macroDefinitions.keys()].join('|')})\\s*\\(`, 'gi');
/** The macros a text calls, by name. */
const callsIn = (text: string) => new Set([...text.matchAll(called)].map((match) => match[1]!.toLowerCase()));
const dependencies = new Map([...macroDefinitions].map(([name, definition]) => [name, callsIn(definition.slice(name.length))]));

/**
 * The statements that create, in a schema (`memory.main`), the macros a statement calls and those
 * they call in turn, leaving out those already created; their names, to remember as created. A
 * workspace's instance creates each macro once, when a statement first needs it: all of them cost
 * tens of milliseconds, each under one.
 */
export function macrosFor(sql: string, created: ReadonlySet<string>, schema: string): { names: string[]; sql: string } {
  const needed = new Set<string>();
  const pending = [...callsIn(sql)];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (needed.has(name) || created.has(name)) continue;
    needed.add(name);
    pending.push(...dependencies.get(name)!);
  }
  const names = [...macroDefinitions.keys()].filter((name) => needed.has(name));
  return { names, sql: names.map((name) => `CREATE OR REPLACE MACRO ${schema}.${macroDefinitions.get(name)!};`).join('\n') };
}
