import { category, perRow, scalars } from './entry';

/**
 * Each rule the dialect follows, written the ways analysts write it beyond the first example: text
 * columns read as numbers, booleans and dates, divisions inside CASE, averages, jsonb edits on
 * columns, arrays, set operations at every level, and the names all of them get.
 */
export const rules = category('rules', [
  // Text read by a type's input rules, from columns and JSON fields as well as literals.
  ...perRow('events', ["(payload ->> 'ok')::boolean", "(payload ->> 'ms')::bigint + 1", "(payload ->> 'total')::numeric(10, 1)", "(payload ->> 'priority')::smallint", "(payload ->> 'order')::text"]),
  ...perRow('customers', ['signup::text::date', "to_char(signup, 'YYYYMMDD')::date", 'created_at::date', 'created_at::time', 'created_at::timestamp', "(extract(year FROM signup)::text || '-01-01')::date",
    'score::text', 'vip::text', 'vip::int', 'country::varchar(1)', "country::char(3) || '|'", 'length(name::varchar(4))', 'balance::numeric(8, 1)', 'balance::int', 'balance::bigint']),
  ...scalars(["'01/15/2024'::date", "'15-Jan-2024'::date", "'2024/01/15'::date", "'Jan 15, 2024'::date", "'2024-01-15T10:00:00+02:00'::timestamptz", "'2024-01-15 10:00:00-05'::timestamptz",
    "'Jan 15 2024 10:30'::timestamp", "'P2W'::interval", "'PT0.5S'::interval", "'P1M15D'::interval", "'PT36H'::interval", "'1 day 02:00:00'::interval", "'yes'::boolean AND 'on'::boolean",
    "' 12 '::smallint", "'-0'::int", "'+12'::bigint", "CAST(' t ' AS boolean)", "'abc'::varchar(10)", "'12345'::varchar(3)::int", "CAST(12345 AS varchar(2))"]),
  // Integer division wherever it is written.
  ...perRow('numbers', ['CASE WHEN b <> 0 THEN a / b END', 'CASE WHEN a > 5 THEN a / 2 ELSE a % 3 END', 'a / b * 1.0', '(a / b)::float8', 'CASE a / 2 WHEN 3 THEN \'three\' ELSE \'other\' END',
    'coalesce(a / nullif(b, 0), 0)', 'greatest(a / 2, b / 2)', 'abs(a) / 4', 'a::bigint / 3', 'b::smallint / 2']),
  'SELECT sum(a) / count(a), sum(a)::float8 / count(*), sum(b) / sum(a) FROM shop.numbers',
  'SELECT status, sum(qty) / count(*), avg(qty) FROM shop.orders GROUP BY status ORDER BY status NULLS LAST',
  // Averages: numeric of integers, double of doubles, with DISTINCT, FILTER and windows.
  'SELECT avg(a), avg(b), round(avg(a), 2), round(avg(b)), avg(a)::int FROM shop.numbers',
  'SELECT flag, round(avg(b), 1), avg(DISTINCT b), avg(x) FROM shop.numbers GROUP BY flag ORDER BY flag NULLS FIRST',
  'SELECT avg(qty) FILTER (WHERE express), avg(total) FILTER (WHERE qty > 2) FROM shop.orders',
  'SELECT id, avg(qty) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM shop.orders ORDER BY id',
  'SELECT customer_id, round(avg(qty), 2) FROM shop.orders GROUP BY customer_id ORDER BY customer_id NULLS LAST',
  'SELECT pg_typeof(avg(qty)), pg_typeof(avg(total)), pg_typeof(sum(qty)), pg_typeof(sum(total)) FROM shop.orders',
  'SELECT round(total) FROM shop.orders ORDER BY id', 'SELECT round(total::numeric, 1), trunc(total::numeric, 1) FROM shop.orders ORDER BY id',
  // Functions that raise where Postgres does.
  ...scalars(['power(2, 0.5)', 'exp(1::float8)', 'ln(exp(2::float8))', 'log(10, 1000)', 'round(2.5)', 'round(-0.5::float8)', 'trunc(-2.5::numeric, 0)', "substr('hello', 0, 2)", "substring('hello' FROM 0 FOR 2)",
    "substring('hello' FOR 2)", "format('%s-%s', 1, NULL)", "format('%1$s %1$s', 'a')", "format('|%*s|', 5, 'x')", "format('|%-*s|', 5, 'x')", "format('%L', 12)", "format('%I.%I', 'Sales', 'x')",
    "format('%s', true)", 'to_hex(255)', 'to_hex(2147483647::bigint * 2)', "upper('straße')", "initcap('ßa hello')", "length('abc'::bytea)", 'justify_interval(interval \'40 days 30 hours\')',
    'justify_hours(interval \'-27 hours\')', 'justify_days(interval \'-35 days\')', 'scale(1.50::numeric(5, 2))', 'min_scale(2.500)', 'sqrt(2)', '|/ 16', '6 # 3']),
  ...perRow('customers', ["format('%s (%s)', name, country)", "format('%-6s|', country)", 'quote_ident(name)', 'quote_literal(country)', 'quote_nullable(email)', 'to_hex(score)', "format('%L', vip)"]),
  // jsonb edits and comparisons on columns.
  ...perRow('events', ["payload || jsonb_build_object('id', id)", "payload - 'device' - 'ok'", "payload #- '{items,0}'", "jsonb_set(payload, '{ok}', 'false', false)", "payload ?| ARRAY['ok', 'page']",
    "payload ?& ARRAY['device', 'ok']", "payload -> 'items' -> 0 ->> 'sku'", "jsonb_array_length(payload -> 'items') > 1", "payload -> 'utm' = '{\"source\": \"ads\", \"campaign\": \"spring\"}'::jsonb"]),
  ...perRow('customers', ["jsonb_set(profile, '{address,city}', '\"Paris\"')", "jsonb_set(profile, '{langs,0}', '\"xx\"')", "profile #- '{address}'", "profile #- '{langs,0}'", "profile -> 'langs' ->> -1",
    "jsonb_strip_nulls(profile)", "profile -> 'address' ? 'zip'", "profile - ARRAY['age', 'langs']", "profile -> 'age' = '41'::jsonb"]),
  ...scalars(["jsonb_build_object('a', 1) || jsonb_build_object('b', 2)", "'[1, 2, 3]'::jsonb - 1", "'[1, 2, 3]'::jsonb - -1", "'[\"a\", \"b\"]'::jsonb - 'a'", "'{\"a\": 1, \"b\": 2, \"c\": 3}'::jsonb - ARRAY['a', 'c']",
    "'{\"a\": [1, {\"b\": null}]}'::jsonb = '{\"a\": [1, {\"b\": null}]}'::jsonb", "'[1, 2]'::jsonb = '[2, 1]'::jsonb", "'{\"a\": 1}'::jsonb <> '{\"a\": 2}'::jsonb", "'\"x\"'::jsonb || '[1]'::jsonb",
    "jsonb_set('{\"a\": 1}'::jsonb, '{b}', '2')", "jsonb_set('{\"a\": 1}'::jsonb, '{b}', '2', false)", "jsonb_set('[1, 2]'::jsonb, '{-1}', '9')", "'5'::jsonb ->> 0", "to_jsonb(1.5) = '1.50'::jsonb"]),
  // Arrays.
  ...scalars(['ARRAY[1, 2] || ARRAY[3]', 'ARRAY[1] || 2 || 3', '1 || ARRAY[2] || 3', "ARRAY['a'] || ARRAY['b', 'c']", 'array_append(ARRAY[1], 2)', 'array_prepend(0, ARRAY[1])', 'array_cat(ARRAY[1], ARRAY[2])',
    "array_position(ARRAY['a', 'b'], 'b')", "array_positions(ARRAY['a', 'b', 'a'], 'a')", 'array_upper(ARRAY[1, 2, 3], 1)', 'array_lower(ARRAY[1, 2], 1)', 'array_ndims(ARRAY[[1], [2]])', "array_dims(ARRAY['x'])",
    "string_to_array('a,b,c', ',')", "array_to_string(ARRAY[1, NULL, 3], ',', '*')", 'array_remove(ARRAY[1, 2, 1], 1)', 'array_replace(ARRAY[1, 2, 1], 1, 9)', '(ARRAY[1, 2, 3])[2]', '(ARRAY[1, 2, 3])[2:3]',
    "'abc' ILIKE ANY (ARRAY['A%'])", "'abc' NOT LIKE ALL (ARRAY['x%', 'y%'])", "'abc' LIKE ANY ('{a%,b%}')"]),
  'SELECT array_agg(id ORDER BY id) || 0 FROM shop.orders WHERE id < 104',
  "SELECT id FROM shop.customers WHERE name ILIKE ANY (ARRAY['%ada%', '%GRACE%']) ORDER BY id",
  "SELECT id FROM shop.customers WHERE email NOT LIKE ALL (ARRAY['%.com', '%.es']) ORDER BY id",
  "SELECT id FROM shop.orders WHERE status = ANY ('{shipped,pending}') AND id <> ALL (ARRAY[101, 102]) ORDER BY id",
  "SELECT unnest(ARRAY[1, 2]) AS x, unnest(ARRAY['a', 'b', 'c']) AS y",
  'SELECT * FROM unnest(ARRAY[10, 20, 30]) WITH ORDINALITY AS t(v, n) ORDER BY n',
  'SELECT * FROM unnest(ARRAY[1, 2], ARRAY[true]) ORDER BY 1',
  'SELECT id, ARRAY[qty] || total::bigint FROM shop.orders ORDER BY id',
  // Set operations: type categories at every level, literals taking the other side's type.
  "SELECT 1 UNION SELECT 2.5 ORDER BY 1", "SELECT 'a' UNION SELECT 'b' ORDER BY 1", 'SELECT signup FROM shop.customers UNION SELECT shipped_on FROM shop.orders ORDER BY 1 NULLS LAST',
  'SELECT created_at FROM shop.customers UNION SELECT ordered_at FROM shop.orders ORDER BY 1', 'SELECT id FROM shop.orders INTERSECT SELECT id + 100 FROM shop.customers ORDER BY 1',
  'SELECT id FROM shop.orders EXCEPT SELECT 101 ORDER BY 1', 'SELECT 1 UNION SELECT NULL ORDER BY 1', "SELECT NULL UNION SELECT 'a' ORDER BY 1",
  "SELECT id, 'order' AS kind FROM shop.orders WHERE id < 103 UNION ALL SELECT id, 'event' FROM shop.events WHERE id < 3 ORDER BY 1, 2",
  'SELECT signup FROM shop.customers UNION SELECT id FROM shop.customers', "SELECT vip FROM shop.customers UNION ALL SELECT 'maybe'", "WITH a AS (SELECT 1 AS x) SELECT x FROM a UNION SELECT 'z'",
  'SELECT * FROM (SELECT 1 UNION SELECT true) t', 'SELECT count(*) FROM (SELECT id FROM shop.orders UNION SELECT status FROM shop.orders) t',
  "SELECT x FROM (SELECT 1 AS x UNION ALL SELECT 2) t WHERE x IN (SELECT 2 UNION SELECT 'three')",
  'WITH u AS (SELECT total AS v FROM shop.orders UNION ALL SELECT vip FROM shop.customers) SELECT count(*) FROM u',
  // WHERE takes a boolean.
  'SELECT id FROM shop.customers WHERE vip ORDER BY id', 'SELECT id FROM shop.customers WHERE NOT vip ORDER BY id', 'SELECT id FROM shop.numbers WHERE a',
  'SELECT id FROM shop.orders WHERE express IS TRUE ORDER BY id', 'SELECT id FROM shop.numbers WHERE label', "SELECT count(*) FROM shop.orders WHERE (meta ->> 'coupon') IS NULL",
  // Date spines and series.
  "SELECT g.d::date, count(o.id) FROM generate_series(date '2024-01-01', date '2024-01-05', interval '1 day') AS g(d) LEFT JOIN shop.orders o ON o.ordered_at::date = g.d::date GROUP BY 1 ORDER BY 1",
  "SELECT c.id, d::date FROM shop.customers c CROSS JOIN LATERAL generate_series(c.signup, c.signup + 2, interval '1 day') AS d WHERE c.id < 3 ORDER BY 1, 2",
  "SELECT c.id, count(*) FROM shop.customers c, generate_series(1, c.score::int / 25) AS g GROUP BY c.id ORDER BY 1",
  "SELECT m, count(o.id) FROM generate_series(1, 6) AS m LEFT JOIN shop.orders o ON extract(month FROM o.ordered_at) = m GROUP BY m ORDER BY m",
  "SELECT generate_series(date '2024-01-01', date '2024-01-03', '1 day'::interval)", 'SELECT * FROM generate_series(1.0, 2.0, 0.5)', 'SELECT * FROM generate_series(10, 1, -3)',
  // Names of what analysts write.
  "SELECT count(*), count(id), sum(qty), max(total), min(ordered_at) FROM shop.orders", "SELECT total::int, total::numeric(10, 2), 'x'::text, 1::text FROM shop.orders ORDER BY id LIMIT 1",
  "SELECT coalesce(note, ''), nullif(status, 'x'), greatest(1, 2), extract(year FROM ordered_at) FROM shop.orders ORDER BY id LIMIT 1",
  "SELECT date_part('year', ordered_at), position('a' IN status), substring(status FROM 2), trim(' a '), overlay('abc' PLACING 'x' FROM 2) FROM shop.orders ORDER BY id LIMIT 1",
  'SELECT CAST(1 AS text) || \'a\', 1::text || 2, ARRAY[1] || 2', 'SELECT x FROM (VALUES (1), (2)) t(x) ORDER BY 1', 'SELECT current_date IS NOT NULL, now() IS NOT NULL',
]);
