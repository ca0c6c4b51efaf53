/**
 * Numeric, string and interval functions by Postgres' rules, as temporary macros (the calls that
 * use them are in arithmetic-functions.ts and string-functions.ts). A typed overload is chosen by
 * the argument's type when DuckDB binds the statement; a `typeof` test is folded then.
 */
const floats = `typeof(x) IN ('DOUBLE', 'FLOAT')`;
const day = 86400000000;

export const functionDefinitions: readonly string[] = [
  // avg() of integers is numeric in Postgres: the exact sum over the count, to 16 decimals (rounded
  // half away from zero), exact while the sum stays below 1.7e22; of anything else DuckDB's avg. The
  // overload is chosen by the argument's type (an aggregate's type is not known yet when a macro's
  // overload is chosen, so the aggregates are inside).
  `pgx_avg_of(s, c) AS CAST((s * 10000000000000000 + CASE WHEN s < 0 THEN -(c // 2) ELSE c // 2 END) // c AS DECIMAL(38, 0)) * 0.0000000000000001`,
  `pgx_avg_check(x) AS CASE WHEN typeof(x) IN ('DATE', 'TIMESTAMP', 'TIMESTAMP WITH TIME ZONE', 'TIME', 'BOOLEAN') THEN error('[42883] function avg(' || pgx_typeof(x) || ') does not exist') ELSE x END`,
  // An interval's months, days and microseconds of time, which Postgres keeps apart.
  `pgx_interval_months(x) AS datepart('year', x) * 12 + datepart('month', x)`,
  `pgx_interval_time(x) AS datepart('hour', x) * 3600000000 + datepart('minute', x) * 60000000 + datepart('microseconds', x)`,
  // An interval's parts divided as Postgres divides them: fractions of a month carried down as days of 30, of a day as seconds (to the microsecond).
  `pgx_interval_div(m, d, t, f) AS list_transform([{'m': m / f, 'd': d / f}], lambda __q: list_transform([{'m': trunc(__q.m), 'd': trunc(__q.d), 'carried': (__q.m - trunc(__q.m)) * 30, 'rest': __q.d - trunc(__q.d)}],
    lambda __r: list_transform([round((__r.rest + __r.carried - trunc(__r.carried)) * 86400000000) / 1000000], lambda __s: to_months(CAST(__r.m AS INTEGER))
      + to_days(CAST(__r.d + trunc(__s / 86400) + trunc(__r.carried) AS INTEGER)) + to_microseconds(CAST(round(t / f + (__s - trunc(__s / 86400) * 86400) * 1000000) AS BIGINT)))[1])[1])[1]`,
  ...['', '_distinct'].map((kind) => {
    const q = kind === '' ? '' : 'DISTINCT ';
    const exact = `pgx_avg_of(sum(${q}CAST(x AS HUGEINT)), count(${q}x))`;
    const intervals = `pgx_interval_div(sum(${q}pgx_interval_months(x)), sum(${q}datepart('day', x)), sum(${q}pgx_interval_time(x)), count(${q}x))`;
    return `pgx_avg${kind}(x TINYINT) AS ${exact}, (x SMALLINT) AS ${exact}, (x INTEGER) AS ${exact}, (x BIGINT) AS ${exact}, (x INTERVAL) AS ${intervals}, (x) AS avg(${q}pgx_avg_check(x))`;
  }),
  // sum() of integers is numeric (see pgx_sum_arg); of intervals each part summed apart, as Postgres keeps them.
  ...['', '_distinct'].map((kind) => {
    const q = kind === '' ? '' : 'DISTINCT ';
    const intervals = `to_months(CAST(sum(${q}pgx_interval_months(x)) AS INTEGER)) + to_days(CAST(sum(${q}datepart('day', x)) AS INTEGER)) + to_microseconds(CAST(sum(${q}pgx_interval_time(x)) AS BIGINT))`;
    // The overloads of pgx_sum_arg, written out: a macro's own argument has no type for another macro's overloads.
    const integers = ['TINYINT', 'SMALLINT', 'INTEGER'].map((type) => `(x ${type}) AS sum(${q}x)`).join(', ');
    return `pgx_sum${kind}(x INTERVAL) AS ${intervals}, ${integers}, (x BIGINT) AS sum(${q}CAST(x AS DECIMAL(38, 0))),
      (x) AS sum(${q}CASE WHEN typeof(x) = 'BOOLEAN' THEN error('[42883] function sum(boolean) does not exist') ELSE x END)`;
  }),
  // round(x, n) and trunc(x, n) take numeric only: Postgres has no such function for double precision.
  `pgx_round_to(x, n) AS CASE WHEN ${floats} THEN error('[42883] function round(double precision, integer) does not exist') ELSE round(x, n) END`,
  `pgx_trunc_to(x, n) AS CASE WHEN ${floats} THEN error('[42883] function trunc(double precision, integer) does not exist') ELSE trunc(x, n) END`,
  // Postgres raises where DuckDB answers Infinity or NaN.
  `pgx_finite(r, x, y) AS CASE WHEN isinf(r) AND NOT isinf(x) AND NOT isinf(y) THEN error('[22003] value out of range: overflow')
    WHEN r = 0 AND x <> 0 AND NOT isinf(x) AND NOT isinf(y) AND y > 0 THEN error('[22003] value out of range: underflow') ELSE r END`,
  `pgx_power(x, y) AS CASE WHEN x = 0 AND y < 0 THEN error('[2201F] zero raised to a negative power is undefined')
    WHEN x < 0 AND y <> trunc(y) THEN error('[2201F] a negative number raised to a non-integer power yields a complex result') ELSE pgx_finite(power(x, y), x, 1) END`,
  `pgx_exp(x) AS CASE WHEN isinf(exp(x)) AND NOT isinf(x) THEN error('[22003] value out of range: overflow') WHEN exp(x) = 0 AND NOT isinf(x) THEN error('[22003] value out of range: underflow') ELSE exp(x) END`,
  // A numeric's scale is its type's; the fewest decimals that show it exactly come from its text.
  `pgx_scale(x) AS CASE WHEN typeof(x) LIKE 'DECIMAL%' THEN CAST(regexp_extract(typeof(x), ',([0-9]+)', 1) AS INTEGER) ELSE length(regexp_extract(CAST(x AS VARCHAR), '\\.([0-9]*)$', 1)) END`,
  `pgx_min_scale(x) AS length(regexp_extract(CAST(x AS VARCHAR), '\\.([0-9]*?)0*$', 1))`,
  // to_hex of an integer (not bigint) shows its 32 bits.
  `pgx_to_hex(x) AS lower(hex(CASE WHEN typeof(x) IN ('INTEGER', 'SMALLINT', 'TINYINT') AND x < 0 THEN CAST(x AS BIGINT) + 4294967296 ELSE CAST(x AS BIGINT) END))`,
  // upper() leaves ß as it is, as a UTF-8 Postgres does (DuckDB writes ẞ).
  `pgx_upper(x) AS CASE WHEN contains(x, 'ß') THEN array_to_string(list_transform(string_split(x, 'ß'), lambda __p: upper(__p)), 'ß') ELSE upper(x) END`,
  `pgx_array_contains(a, b) AS list_has_all(a, b) AND len(list_filter(b, lambda __e: __e IS NULL)) = 0`,
  `pgx_trim_array(a, n) AS CASE WHEN n < 0 OR n > len(a) THEN error('[2202E] number of elements to trim must be between 0 and ' || len(a)) ELSE a[1:len(a) - n] END`,
  // to_char of a number: a double rounds as printf does (its exact value, half to even), a numeric half away from zero.
  `pgx_to_char_value(x, n) AS CASE WHEN ${floats} THEN CAST(x AS DOUBLE) ELSE CAST(round(x, n) AS DOUBLE) END`,
  // width_bucket: equal buckets between two bounds in either order, or the thresholds an array holds.
  `pgx_width_bucket(x, lo, hi, n) AS CASE WHEN n <= 0 THEN error('[2201G] count must be greater than zero') WHEN lo = hi THEN error('[2201G] lower bound cannot equal upper bound')
    WHEN lo < hi THEN CASE WHEN x < lo THEN 0 WHEN x >= hi THEN n + 1 ELSE CAST(floor(CAST(x - lo AS DOUBLE) * n / CAST(hi - lo AS DOUBLE)) AS INTEGER) + 1 END
    ELSE CASE WHEN x > lo THEN 0 WHEN x <= hi THEN n + 1 ELSE CAST(floor(CAST(lo - x AS DOUBLE) * n / CAST(lo - hi AS DOUBLE)) AS INTEGER) + 1 END END`,
  `pgx_width_bucket_of(x, t) AS CAST(len(list_filter(t, lambda __b: __b <= x)) AS INTEGER)`,
  // lpad/rpad with an empty fill cut the text to the length and never pad.
  `pgx_lpad(s, n, f) AS CASE WHEN f = '' THEN left(s, greatest(n, 0)) ELSE lpad(s, n, f) END`,
  `pgx_rpad(s, n, f) AS CASE WHEN f = '' THEN left(s, greatest(n, 0)) ELSE rpad(s, n, f) END`,
  `pgx_split_part(s, d, n) AS CASE WHEN n = 0 THEN error('[22023] field position must not be zero') WHEN d = '' THEN CASE WHEN n IN (1, -1) THEN s ELSE '' END ELSE split_part(s, d, n) END`,
  `pgx_string_to_array(s, d) AS CASE WHEN s = '' THEN CAST([] AS VARCHAR[]) WHEN d IS NULL THEN string_split(s, '') WHEN d = '' THEN [s] ELSE string_split(s, d) END`,
  `pgx_substr_length(n) AS CASE WHEN n < 0 THEN error('[22011] negative substring length not allowed') ELSE n END`,
  // length(bytea) counts bytes.
  `pgx_length(x BLOB) AS octet_length(x), (x) AS length(x)`,
  // format(): a width pads with blanks, on the right for a negative one, never cuts.
  `pgx_pad(s, w) AS CASE WHEN w < 0 THEN rpad(coalesce(s, ''), CAST(greatest(length(coalesce(s, '')), -w) AS INTEGER), ' ')
    ELSE lpad(coalesce(s, ''), CAST(greatest(length(coalesce(s, '')), w) AS INTEGER), ' ') END`,
  // A value as format's %s shows it: Postgres' output text (a boolean is t or f), NULL as nothing.
  // An array's text: {1,2}, elements quoted where Postgres quotes them, NULL for a NULL, t and f for booleans; a list of lists as its nested braces.
  `pgx_array_item(e) AS CASE WHEN e IS NULL THEN 'NULL' WHEN e = '' OR lower(e) = 'null' OR regexp_matches(e, '[{}",\\\\\\s]') THEN '"' || replace(replace(e, '\\', '\\\\'), '"', '\\"') || '"' ELSE e END`,
  `pgx_array_text(x) AS CASE WHEN typeof(x) LIKE '%[][]' THEN translate(CAST(to_json(x) AS VARCHAR), '[]', '{}')
    ELSE '{' || array_to_string(list_transform(CAST(json_extract_string(CAST(to_json(x) AS JSON), '$[*]') AS VARCHAR[]), lambda __e: pgx_array_item(CASE WHEN typeof(x) = 'BOOLEAN[]' THEN left(__e, 1) ELSE __e END)), ',') || '}' END`,
  `pgx_text(x) AS CASE WHEN typeof(x) = 'BOOLEAN' THEN CASE WHEN CAST(x AS VARCHAR) = 'true' THEN 't' WHEN CAST(x AS VARCHAR) = 'false' THEN 'f' END
    WHEN typeof(x) LIKE '%[]' THEN pgx_array_text(x) ELSE CAST(x AS VARCHAR) END`,
  // A record's text: each field as its output text, quoted when empty or holding a quote, backslash, parenthesis, comma or blank; NULL as nothing.
  `pgx_record_field(x) AS CASE WHEN x IS NULL THEN '' ELSE pgx_record_quote(pgx_text(x)) END`,
  `pgx_record_quote(t) AS CASE WHEN t = '' OR regexp_matches(t, '["\\\\(),\\s]') THEN '"' || replace(replace(t, '\\', '\\\\'), '"', '""') || '"' ELSE t END`,
  `pgx_identifier(x) AS CASE WHEN x IS NULL THEN error('[22004] null values cannot be formatted as an SQL identifier') ELSE quote_ident(x) END`,
  // generate_series over numeric bounds or step.
  `pgx_numeric_series(a, b, s) AS list_transform(range(0, CAST(floor((b - a) / pgx_step(s)) AS BIGINT) + 1), lambda __i: a + __i * s)`,
  // A nested list's dimensions: how deep its type nests, each length its first element's.
  `pgx_array_ndims(a) AS CASE WHEN len(a) > 0 THEN (length(typeof(a)) - length(replace(typeof(a), '[]', ''))) // 2 END`,
  `pgx_array_length(a, d) AS CASE WHEN d BETWEEN 1 AND pgx_array_ndims(a) THEN CAST(json_array_length(to_json(a), '$' || repeat('[0]', d - 1)) AS INTEGER) END`,
  `pgx_array_dims(a) AS CASE WHEN len(a) > 0 THEN array_to_string(list_transform(range(1, pgx_array_ndims(a) + 1), lambda __d: '[1:' || pgx_array_length(a, __d) || ']'), '') END`,
  // Every element of every dimension.
  `pgx_cardinality(a) AS CASE WHEN pgx_array_ndims(a) > 1 THEN len(json_extract(to_json(a), '$' || repeat('[*]', pgx_array_ndims(a)))) ELSE len(a) END`,
  // An interval's months, days and microseconds, and one made of them.
  `pgx_interval_parts(i) AS {'m': datepart('year', i) * 12 + datepart('month', i), 'd': datepart('day', i), 't': datepart('hour', i) * 3600000000 + datepart('minute', i) * 60000000 + datepart('microseconds', i)}`,
  `pgx_interval_from(p) AS list_transform([p], lambda __q: to_months(CAST(__q.m AS INTEGER)) + to_days(CAST(__q.d AS INTEGER)) + to_microseconds(__q.t))[1]`,
  // Whole days out of the time (justify_hours), whole months of 30 days out of the days (justify_days), signs made to agree.
  // Each step names its input once (a one-element list's lambda): nested steps would copy it.
  `pgx_days_of_time(p) AS list_transform([p], lambda __q: {'m': __q.m, 'd': __q.d + __q.t // ${day}, 't': __q.t % ${day}})[1]`,
  `pgx_time_sign(p) AS list_transform([p], lambda __q: CASE WHEN __q.d > 0 AND __q.t < 0 THEN {'m': __q.m, 'd': __q.d - 1, 't': __q.t + ${day}}
    WHEN __q.d < 0 AND __q.t > 0 THEN {'m': __q.m, 'd': __q.d + 1, 't': __q.t - ${day}} ELSE __q END)[1]`,
  `pgx_months_of_days(p) AS list_transform([p], lambda __q: {'m': __q.m + __q.d // 30, 'd': __q.d % 30, 't': __q.t})[1]`,
  `pgx_day_sign(p) AS list_transform([p], lambda __q: CASE WHEN __q.m > 0 AND (__q.d < 0 OR (__q.d = 0 AND __q.t < 0)) THEN {'m': __q.m - 1, 'd': __q.d + 30, 't': __q.t}
    WHEN __q.m < 0 AND (__q.d > 0 OR (__q.d = 0 AND __q.t > 0)) THEN {'m': __q.m + 1, 'd': __q.d - 30, 't': __q.t} ELSE __q END)[1]`,
  `pgx_month_sign(p) AS list_transform([p], lambda __q: CASE WHEN __q.m > 0 AND __q.d < 0 THEN {'m': __q.m - 1, 'd': __q.d + 30, 't': __q.t}
    WHEN __q.m < 0 AND __q.d > 0 THEN {'m': __q.m + 1, 'd': __q.d - 30, 't': __q.t} ELSE __q END)[1]`,
  `pgx_same_sign_days(p) AS list_transform([p], lambda __q: CASE WHEN (__q.d > 0 AND __q.t > 0) OR (__q.d < 0 AND __q.t < 0) THEN pgx_days_of_time(__q) ELSE __q END)[1]`,
  `pgx_justify_hours(i) AS pgx_interval_from(pgx_time_sign(pgx_days_of_time(pgx_interval_parts(i))))`,
  `pgx_justify_days(i) AS pgx_interval_from(pgx_month_sign(pgx_months_of_days(pgx_interval_parts(i))))`,
  // justify_interval: days out of the time first when both have one sign, then months, then the rest.
  `pgx_justify_interval(i) AS pgx_interval_from(pgx_time_sign(pgx_days_of_time(pgx_day_sign(pgx_months_of_days(pgx_same_sign_days(pgx_interval_parts(i)))))))`,
];
