import { category, scalars } from './entry';

/** Queries Postgres refuses: each must be refused, with Postgres' SQLSTATE. */
export const errors = category('errors', [
  ...scalars([
    '1 / 0', '1 % 0', '1.5 / 0', '1.5::float8 / 0', '1 / 0.0', '0 / 0', 'mod(5, 0)', 'div(1, 0)', '1 / (2 - 2)', '10 / (SELECT 0)', "'4.2'::int", "'abc'::int", "''::int",
    "'2147483648'::int", "'99999999999999999999'::bigint", "'1e3'::int", '300::smallint', "'maybe'::boolean", "'2024-02-30'::date", "'not a date'::date", "'25:00'::time",
    "'abc'::numeric", "'{bad'::jsonb", "'1 fortnight'::interval", 'max(true)', 'min(false)', "sum('a')", "avg('x'::text)", "1 + 'a'", "'a' + 1", 'sqrt(-1)', 'ln(0)', 'log(-1)',
    "'2024-01-01'::date + 'x'", 'factorial(-1)', "repeat('x', -1) || 1 / 0", "substr('hello', 2, -1)", 'power(0, -1)', "to_date('2024-13-01', 'YYYY-MM-DD')", 'now() + 1',
    "date '2024-01-01' * 2", "'a'::int + 1", "ARRAY[1, 'a']", "jsonb_array_length('{}'::jsonb)", "(ARRAY[1, 2])[1:2][1]", "generate_series(1, 10, 0)", "'abc' ~ '('",
    'exp(10000::float8)', '2147483647 + 1', '9223372036854775807 + 1', '-2147483648 * -1', '(-32768)::smallint * -1::smallint', "'NaN'::int",
  ]),
  'SELECT a / (b - b) FROM shop.numbers', 'SELECT sum(a) / 0 FROM shop.numbers', 'SELECT max(flag) FROM shop.numbers', 'SELECT label::int FROM shop.numbers',
  'SELECT x / (y - y) FROM shop.numbers', 'SELECT 1 UNION SELECT \'a\'', 'SELECT 1 UNION SELECT true', 'SELECT id FROM shop.orders UNION SELECT status FROM shop.orders',
  'SELECT total FROM shop.orders UNION ALL SELECT note FROM shop.orders', 'SELECT * FROM generate_series(1, 10, 0)', 'SELECT nosuch FROM shop.orders', 'SELECT * FROM shop.nosuch',
  'SELECT status, count(*) FROM shop.orders', 'SELECT round(total, 2) FROM shop.orders', 'SELECT id FROM shop.orders WHERE total', 'SELECT qty::boolean FROM shop.orders',
  'SELECT upper(qty) FROM shop.orders', 'SELECT id FROM shop.orders ORDER BY 5', 'SELECT sum(total) OVER (ORDER BY id) FROM shop.orders GROUP BY status',
  "SELECT (payload ->> 'device')::int FROM shop.events", "SELECT 1 / (qty - qty) FROM shop.orders WHERE false", 'SELECT length(123)',
]);
