import { category } from './entry';

const overNumbers = ['avg(b * 1.0)', 'sum(b)', 'avg(y)', 'sum(y)', 'avg(a::int)', 'sum(a::int)', 'sum(b::smallint)', 'avg(x::numeric)', 'sum(x::numeric)', 'stddev_samp(a)', 'stddev_pop(x)',
  'var_samp(b)', 'var_pop(a)', 'variance(x)', 'stddev(b)', 'stddev(a::numeric)', 'stddev_pop(a) FILTER (WHERE id = 1)', 'stddev_samp(a) FILTER (WHERE id = 1)', 'bool_and(flag), bool_or(flag), every(flag)',
  "string_agg(label, '|' ORDER BY label DESC)", 'array_agg(label ORDER BY id)', 'array_agg(a ORDER BY a NULLS FIRST)', 'array_agg(DISTINCT flag)', 'array_agg(x ORDER BY x DESC)',
  'percentile_disc(0.25) WITHIN GROUP (ORDER BY a)', 'percentile_disc(ARRAY[0.25, 0.5, 0.75]) WITHIN GROUP (ORDER BY a)', 'percentile_cont(ARRAY[0.1, 0.9]) WITHIN GROUP (ORDER BY y)',
  'percentile_cont(0.5) WITHIN GROUP (ORDER BY a DESC)', 'percentile_disc(0.5) WITHIN GROUP (ORDER BY day)', 'mode() WITHIN GROUP (ORDER BY flag)', 'count(DISTINCT flag)', 'count(flag)',
  'sum(a) / sum(b)', 'sum(a)::numeric / sum(b)', 'avg(a) * 2', 'round(avg(b), 3)', 'min(day), max(day)', 'max(label)', 'sum(CASE WHEN flag THEN x END)', 'avg(CASE WHEN flag THEN 1.0 ELSE 0 END)',
  'regr_count(y, x), regr_intercept(y, x)', 'regr_r2(y, x)', 'covar_samp(a, b)', 'corr(x, y)', 'bit_xor(b)', 'bool_and(a > 0) FILTER (WHERE a IS NOT NULL)', 'count(*) FILTER (WHERE label LIKE \'%e%\')',
  'sum(a) FILTER (WHERE flag IS NOT TRUE)', 'avg(a) FILTER (WHERE false)', 'max(a) FILTER (WHERE b > 100)', 'count(DISTINCT a % 2)', 'sum(DISTINCT a % 3)', 'avg(DISTINCT x)', 'min(x) + max(y)'];

/** Aggregates: result types of sums and averages, spreads, ordered aggregates, percentiles, FILTER and empty inputs. */
export const aggregateFunctions = category('aggregate functions', [
  ...overNumbers.map((aggregate) => `SELECT ${aggregate} FROM shop.numbers`),
  'SELECT avg(a), sum(a), stddev(a), string_agg(label, \',\'), array_agg(a), bool_and(flag), count(*), count(a) FROM shop.numbers WHERE id > 100',
  'SELECT percentile_cont(0.9) WITHIN GROUP (ORDER BY total), percentile_disc(0.9) WITHIN GROUP (ORDER BY total) FROM shop.orders',
  'SELECT mode() WITHIN GROUP (ORDER BY status) FROM shop.orders', 'SELECT count(DISTINCT status), count(status), count(*) FROM shop.orders',
  'SELECT count(DISTINCT customer_id) FILTER (WHERE total > 50) FROM shop.orders', 'SELECT count(*) FILTER (WHERE note IS NULL), count(note) FROM shop.orders',
  "SELECT sum(total) FILTER (WHERE express), avg(qty) FILTER (WHERE status = 'shipped') FROM shop.orders", 'SELECT count(DISTINCT note) FROM shop.orders',
  'SELECT min(status), max(status), min(ordered_at), max(shipped_on) FROM shop.orders', 'SELECT sum(qty)::float8 / count(*), avg(total)::numeric(10, 2) FROM shop.orders',
  'SELECT corr(total, qty), covar_pop(total, qty), regr_slope(total, qty) FROM shop.orders', 'SELECT bool_or(express), bool_and(express), bool_and(total > 0) FROM shop.orders',
  "SELECT string_agg(DISTINCT country, ',' ORDER BY country) FROM shop.customers", "SELECT string_agg(name, '; ' ORDER BY signup DESC, name) FROM shop.customers",
  'SELECT array_agg(score ORDER BY score DESC NULLS LAST) FROM shop.customers', 'SELECT array_agg(email ORDER BY id) FROM shop.customers',
  'SELECT customer_id, avg(qty), sum(qty), count(*), min(total), max(total) FROM shop.orders GROUP BY 1 ORDER BY 1 NULLS FIRST',
  'SELECT customer_id, avg(total) FROM shop.orders GROUP BY customer_id HAVING avg(total) > 100 ORDER BY 1',
  'SELECT status, count(*) FROM shop.orders GROUP BY status HAVING count(*) = 1 ORDER BY status NULLS FIRST',
  'SELECT country, avg(score), stddev(score), max(balance) - min(balance) FROM shop.customers GROUP BY country ORDER BY country NULLS FIRST',
  'SELECT vip, count(*), avg(balance), sum(score) FROM shop.customers GROUP BY vip ORDER BY vip NULLS LAST',
  'SELECT kind, avg(duration), sum(duration), count(duration), percentile_cont(0.5) WITHIN GROUP (ORDER BY duration) FROM shop.events GROUP BY kind ORDER BY kind',
  'SELECT customer_id, count(*) AS n, string_agg(kind, \'>\' ORDER BY happened_at) AS path FROM shop.events GROUP BY 1 ORDER BY 1 NULLS LAST',
  'SELECT count(*) AS orders, count(DISTINCT customer_id) AS buyers, round(sum(total)::numeric / count(DISTINCT customer_id), 2) AS per_buyer FROM shop.orders',
  'SELECT sum(score), avg(score), sum(score)::numeric / count(*) FROM shop.customers',
  'SELECT max(total) FILTER (WHERE status = \'shipped\') - min(total) FILTER (WHERE status = \'shipped\') FROM shop.orders',
  'SELECT avg(qty)::float8, sum(qty) * 1.0 / count(*), avg(qty::float8) FROM shop.orders',
  'SELECT avg(extract(epoch FROM shipped_on - ordered_at::date)) FROM shop.orders',
  'SELECT json_agg(status ORDER BY id) FILTER (WHERE express), count(*) FROM shop.orders',
  'SELECT count(*) FROM (SELECT DISTINCT customer_id, status FROM shop.orders) t',
  'SELECT sum(x), sum(y), sum(x + y), sum(x) + sum(y) FROM shop.numbers',
]);
