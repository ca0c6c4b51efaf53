/**
 * Casts by Postgres' input rules (see casts.ts), as temporary macros: each takes any type and, by a
 * test on `typeof(x)` that DuckDB folds when it binds the statement, either reads text the way
 * Postgres' input function does or is DuckDB's own CAST. Text read wrongly raises Postgres' error.
 */

/** `'[22P02] invalid input syntax for type integer: "…"'` for the text `s`. */
const invalid = (sqlstate: string, type: string, s = 's') => `error('[${sqlstate}] invalid input syntax for type ${type}: "' || ${s} || '"')`;
const outOfRange = (s = 's') => `error('[22008] date/time field value out of range: "' || ${s} || '"')`;
/** A macro over any type whose text form is read by `reader(s)`; other types are cast by DuckDB. */
const fromText = (name: string, duckdb: string, reader: string, otherTypes = `CAST(x AS ${duckdb})`) =>
  `${name}(x) AS CASE WHEN typeof(x) <> 'VARCHAR' THEN ${otherTypes} WHEN x IS NULL THEN NULL ELSE ${reader}(CAST(x AS VARCHAR)) END`;

const integer = (name: string, duckdb: string, type: string) => [
  // Postgres 15: blanks, a sign and digits; no fraction, exponent, hex or underscores.
  `${name}_in(s) AS CASE WHEN NOT regexp_full_match(s, '\\s*[+-]?[0-9]+\\s*') THEN ${invalid('22P02', type)}
    ELSE coalesce(TRY_CAST(trim(s) AS ${duckdb}), error('[22003] value "' || s || '" is out of range for type ${type}')) END`,
  fromText(name, duckdb, `${name}_in`),
];

/** Date spellings Postgres reads (DateStyle ISO, MDY) beyond DuckDB's ISO dates. */
const dateFormats = [
  '%Y%m%d',
  '%b %d %Y',
  '%B %d %Y',
  '%b %d, %Y',
  '%B %d, %Y',
  '%d %b %Y',
  '%d %B %Y',
  '%d-%b-%Y',
  '%b-%d-%Y',
  '%Y-%b-%d',
  '%m/%d/%Y',
  '%m-%d-%Y',
  '%Y.%m.%d',
  '%a %b %d %Y',
  '%a, %d %b %Y',
];
const timeSuffixes = [' %H:%M:%S', ' %H:%M', ' %H:%M:%S.%f', 'T%H%M%S', ' %I:%M %p', ' %I:%M:%S %p'];
const list = (formats: readonly string[]) => `[${formats.map((format) => `'${format}'`).join(', ')}]`;
/** Every date and date-time spelling, for strptime. */
export const dateTimeFormats = list([...dateFormats.flatMap((date) => timeSuffixes.map((time) => date + time)), ...dateFormats]);

/** ISO text whose fields are numbers out of the calendar or the clock is out of range; anything else unreadable is bad syntax. */
const badDate = (type: string) =>
  `CASE WHEN regexp_full_match(s, '\\s*[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([ T][0-9]{1,2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?)?\\s*([+-][0-9]{1,2}(:?[0-9]{2})?|Z)?\\s*') THEN ${outOfRange()} ELSE ${invalid('22007', type)} END`;

/** `P1Y2M3DT4H5M6S` and its parts: ISO 8601 durations, with fractions carried down as Postgres does. */
const isoDuration = `'^\\s*P(?:(-?[0-9.]+)Y)?(?:(-?[0-9.]+)M)?(?:(-?[0-9.]+)W)?(?:(-?[0-9.]+)D)?(?:T(?:(-?[0-9.]+)H)?(?:(-?[0-9.]+)M)?(?:(-?[0-9.]+)S)?)?\\s*$'`;
const part = (name: string) => `coalesce(TRY_CAST(nullif(p.${name}, '') AS DOUBLE), 0)`;

export const castDefinitions: readonly string[] = [
  ...integer('pgx_int2', 'SMALLINT', 'smallint'),
  ...integer('pgx_int4', 'INTEGER', 'integer'),
  ...integer('pgx_int8', 'BIGINT', 'bigint'),
  `pgx_bool_in(s) AS CASE WHEN lower(trim(s)) IN ('t', 'tr', 'tru', 'true', 'y', 'ye', 'yes', 'on', '1') THEN true
    WHEN lower(trim(s)) IN ('f', 'fa', 'fal', 'fals', 'false', 'n', 'no', 'of', 'off', '0') THEN false ELSE ${invalid('22P02', 'boolean')} END`,
  // Postgres casts integer (int4) and jsonb to boolean, no other number.
  fromText(
    'pgx_bool',
    'BOOLEAN',
    'pgx_bool_in',
    `CASE WHEN typeof(x) IN ('BOOLEAN', 'INTEGER', 'JSON', '"NULL"') THEN CAST(x AS BOOLEAN) ELSE error('[42846] cannot cast type ' || pgx_typeof(x) || ' to boolean') END`,
  ),
  `pgx_relative_day(s) AS CASE lower(trim(s)) WHEN 'today' THEN current_date WHEN 'tomorrow' THEN current_date + 1 WHEN 'yesterday' THEN current_date - 1 END`,
  `pgx_date_in(s) AS coalesce(TRY_CAST(s AS DATE), CAST(try_strptime(trim(s), ${dateTimeFormats}) AS DATE), pgx_relative_day(s), ${badDate('date')})`,
  fromText('pgx_date', 'DATE', 'pgx_date_in'),
  // A fraction of a second beyond microseconds is rounded, as Postgres does (DuckDB cuts it).
  `pgx_rounded_fraction(s, t) AS t + CASE WHEN regexp_extract(s, '[0-9]:[0-9]{2}\\.[0-9]{6}([5-9])', 1) <> '' THEN INTERVAL 1 MICROSECOND ELSE INTERVAL 0 MICROSECOND END`,
  `pgx_timestamp_in(s) AS pgx_rounded_fraction(s, coalesce(TRY_CAST(s AS TIMESTAMP), try_strptime(trim(s), ${dateTimeFormats}), CAST(pgx_relative_day(s) AS TIMESTAMP), ${badDate('timestamp')}))`,
  fromText('pgx_timestamp', 'TIMESTAMP', 'pgx_timestamp_in'),
  // DuckDB reads an offset after seconds only: `12:00+00` becomes `12:00:00+00`.
  `pgx_timestamptz_in(s) AS pgx_rounded_fraction(s, coalesce(TRY_CAST(s AS TIMESTAMPTZ), TRY_CAST(regexp_replace(trim(s), '^(\\S+[ T][0-9]{1,2}:[0-9]{2})([+-][0-9])', '\\1:00\\2') AS TIMESTAMPTZ),
    CAST(try_strptime(trim(s), ${dateTimeFormats}) AS TIMESTAMPTZ), CAST(pgx_relative_day(s) AS TIMESTAMPTZ), ${badDate('timestamp with time zone')}))`,
  fromText('pgx_timestamptz', 'TIMESTAMPTZ', 'pgx_timestamptz_in'),
  // A timestamptz's time of day is the session's local time.
  `pgx_time(x) AS CASE WHEN typeof(x) = 'TIMESTAMP WITH TIME ZONE' THEN CAST(CAST(x AS TIMESTAMP) AS TIME) ELSE CAST(x AS TIME) END`,
  // Fractions of a month become days of 30, fractions of a day seconds, as Postgres carries them.
  `pgx_interval_of(months, days, seconds) AS to_months(CAST(trunc(months) AS INTEGER)) + to_days(CAST(trunc(days + (months - trunc(months)) * 30) AS INTEGER))
    + to_microseconds(CAST(round((seconds + (days + (months - trunc(months)) * 30 - trunc(days + (months - trunc(months)) * 30)) * 86400) * 1000000) AS BIGINT))`,
  `pgx_iso_interval(p, s) AS CASE WHEN concat(p.y, p.mo, p.w, p.d, p.h, p.mi, p.s) = '' THEN ${invalid('22007', 'interval')}
    ELSE pgx_interval_of(${part('y')} * 12 + ${part('mo')}, ${part('w')} * 7 + ${part('d')}, ${part('h')} * 3600 + ${part('mi')} * 60 + ${part('s')}) END`,
  // A sign before a part (`-1 day +2 hours`, `1 month - 1 day`) is Postgres'; DuckDB reads a minus only, next to its number.
  `pgx_interval_in(s) AS CASE WHEN regexp_full_match(s, '\\s*P.*') THEN pgx_iso_interval(regexp_extract(s, ${isoDuration}, ['y', 'mo', 'w', 'd', 'h', 'mi', 's']), s)
    ELSE coalesce(TRY_CAST(s AS INTERVAL), TRY_CAST(regexp_replace(regexp_replace(s, '(^|\\s)([+-])\\s+([0-9])', '\\1\\2\\3', 'g'), '(^|\\s)\\+', '\\1', 'g') AS INTERVAL), CAST(s AS INTERVAL)) END`,
  fromText('pgx_interval', 'INTERVAL', 'pgx_interval_in'),
  // An explicit cast to varchar(n) or char(n) cuts the text to n characters; char(n) ignores trailing blanks.
  `pgx_varchar(x, n) AS left(CAST(x AS VARCHAR), n)`,
  `pgx_bpchar(x, n) AS rtrim(left(CAST(x AS VARCHAR), n), ' ')`,
];
