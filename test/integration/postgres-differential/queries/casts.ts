import { category, perRow, scalars } from './entry';

const integerInputs = ["'42'", "' 42 '", "'-17'", "'+5'", "'4.2'", "'abc'", "''", "'1e3'", "'2147483647'", "'2147483648'", "'0x1A'", "'1_000'"];
const booleanInputs = ["'true'", "'false'", "'t'", "'f'", "'yes'", "'no'", "'on'", "'off'", "'1'", "'0'", "'y'", "'n'", "'TRUE'", "' yes '", "'tr'", "'of'", "'maybe'"];
const dateInputs = ["'2024-01-15'", "'20240115'", "'Jan 15 2024'", "'January 15, 2024'", "'15 Jan 2024'", "'2024/01/15'", "'2024-1-5'", "'2024-02-30'", "'2024-01-15 10:30:00'", "'not a date'"];
const intervalInputs = ["'1 day'", "'1 day 2 hours'", "'@ 1 day'", "'P1D'", "'PT1H30M'", "'P1Y2M3DT4H5M6S'", "'2 weeks'", "'1:30:00'", "'-1 day'", "'1 mon'", "'90 minutes'", "'3 days ago'"];

export const casts = category('casts', [
  ...scalars(integerInputs.map((text) => `${text}::int`)),
  ...scalars(integerInputs.slice(0, 6).map((text) => `CAST(${text} AS bigint)`)),
  ...scalars(booleanInputs.map((text) => `${text}::boolean`)),
  ...scalars(dateInputs.map((text) => `${text}::date`)),
  ...scalars(intervalInputs.map((text) => `${text}::interval`)),
  ...scalars([
    "'4.2'::numeric::int", '3.5::int', '2.5::int', '-2.5::int', '2.5::float8::int', '3.5::float8::int', '-0.5::float8::int', '300::smallint', '40000::smallint',
    '2147483648::int', '1e10::int', "'12.345'::numeric(5,2)", "'123.456'::numeric(4,1)", '123.456::numeric(10,1)', "'abcdef'::varchar(3)", "'abcdef'::char(3)",
    "'ab'::char(4) || 'x'", "CAST('abcdef' AS varchar(2))", "'3.14'::float8", "'NaN'::float8", "'Infinity'::float8 > 0", "'1e400'::float8", '42::text',
    '4.20::text', '1.5::float8::text', 'true::text', 'true::int', '1::boolean', '0::boolean', "'2024-01-15'::timestamp", "'2024-01-15 10:30'::timestamptz",
    "timestamptz '2024-01-15 12:00+00'", "timestamptz '2024-01-15 12:00:00+02'", "timestamp '2024-01-15 12:00'", "'2024-01-15T12:00:00Z'::timestamptz",
    "date '2024-01-15' + 1", "'10:30'::time", "'25:00'::time", "'123'::text::int + 1", "'{1,2,3}'::int[]", "'{a,b}'::text[]", "'[1, 2]'::jsonb",
    "'{\"a\": 1}'::json", "'{bad'::jsonb", "'1.5'::real", "'0.1'::float4 = 0.1", "'-0'::float8", "'  3.5  '::numeric",
    "'1,5'::numeric", "'99999999999999999999'::bigint", "'9223372036854775807'::bigint", "'-32768'::smallint", "'32768'::smallint", "5::numeric / 3",
    "'5'::int / '3'::int", "CAST(CAST('7' AS integer) AS text) || 'x'", "1::text || 2::text", "pg_typeof(1)", "pg_typeof(1.5)", "pg_typeof('a'::text)",
    "pg_typeof(1::bigint)", "pg_typeof(now())", "pg_typeof(current_date)", "pg_typeof(1.5::float8)", "pg_typeof(true)", "pg_typeof('{}'::jsonb)",
    "pg_typeof(interval '1 day')", "pg_typeof(ARRAY[1,2])", "pg_typeof(sum(1))", "pg_typeof(count(*))", "pg_typeof(avg(1))",
  ]),
  ...perRow('numbers', ['a::text', 'x::int', 'y::int', 'x::numeric(10,1)', 'y::text', 'label::varchar(4)', 'flag::text', 'day::text', 'day::timestamp', 'a::float8 / 4', 'x::bigint', 'pg_typeof(a)', 'pg_typeof(x)', 'pg_typeof(a / b)', 'pg_typeof(x / 2)', 'pg_typeof(label)', 'pg_typeof(day)']),
  ...perRow('customers', ['created_at::date', 'signup::timestamptz', 'balance::int', 'balance::numeric(8,1)', 'score::text', 'vip::int', 'name::varchar(5)', "email::varchar(3)", 'pg_typeof(created_at)', 'pg_typeof(profile)']),
]);
