import { category } from './entry';

const aggregates = ['count(*)', 'count(a)', 'count(DISTINCT b)', 'sum(a)', 'sum(x)', 'avg(a)', 'avg(x)', 'min(a)', 'max(x)', 'min(label)', 'max(day)', 'sum(a) / count(*)',
  'sum(a) / count(a)', 'avg(a) / 2', 'sum(b) / 3', 'sum(a)::float8 / count(*)', 'round(avg(a), 2)', 'round(avg(x)::numeric, 3)', 'stddev(a)', 'stddev_samp(x)', 'stddev_pop(a)',
  'variance(a)', 'var_pop(x)', 'bool_and(flag)', 'bool_or(flag)', 'every(a > -10)', 'string_agg(label, \',\' ORDER BY id)', 'array_agg(a ORDER BY id)', 'array_agg(DISTINCT b ORDER BY b)',
  'count(*) FILTER (WHERE flag)', 'sum(a) FILTER (WHERE a > 0)', 'percentile_cont(0.5) WITHIN GROUP (ORDER BY a)', 'percentile_disc(0.5) WITHIN GROUP (ORDER BY x)',
  'mode() WITHIN GROUP (ORDER BY b)', 'corr(a, x)', 'covar_pop(a, b)', 'regr_slope(y, x)', 'sum(a * x)', 'avg(b)', 'sum(DISTINCT b)', 'count(DISTINCT (a, b))',
  'max(a) - min(a)', 'sum(CASE WHEN flag THEN 1 ELSE 0 END)', 'sum(CASE WHEN flag THEN 1 ELSE 0 END) / count(*)', '100 * sum(CASE WHEN flag THEN 1 ELSE 0 END) / count(*)',
  '100.0 * sum(CASE WHEN flag THEN 1 ELSE 0 END) / count(*)', 'count(*) * 1.0 / 3', 'avg(a)::int', 'sum(a)::int', 'bit_and(b)', 'bit_or(a)', 'json_agg(label ORDER BY id)',
  'min(flag::int)', 'max(x) FILTER (WHERE x < 3)', 'avg(x) FILTER (WHERE flag)', 'sum(1)', 'sum(1) / 2', 'count(1)', 'sum(0.5)', 'avg(1)', 'avg(DISTINCT b)'];

export const aggregatesCategory = category('aggregates', [
  ...aggregates.map((aggregate) => `SELECT ${aggregate} FROM shop.numbers`),
  ...aggregates.slice(0, 16).map((aggregate) => `SELECT flag, ${aggregate} FROM shop.numbers GROUP BY flag ORDER BY flag NULLS FIRST`),
  'SELECT max(flag) FROM shop.numbers', 'SELECT min(vip) FROM shop.customers', 'SELECT sum(label) FROM shop.numbers', 'SELECT avg(day) FROM shop.numbers',
  'SELECT count(*) FROM shop.numbers WHERE false', 'SELECT sum(a) FROM shop.numbers WHERE false', 'SELECT max(a) FROM shop.numbers WHERE false',
  'SELECT status, count(*) AS n, sum(total) AS revenue, avg(qty) FROM shop.orders GROUP BY status ORDER BY n DESC, status',
  'SELECT customer_id, sum(qty) / count(*) AS per_order FROM shop.orders GROUP BY customer_id ORDER BY customer_id',
  'SELECT customer_id, count(*) FROM shop.orders GROUP BY customer_id HAVING count(*) > 1 ORDER BY 1',
  'SELECT country, count(*), round(avg(balance)::numeric, 2) FROM shop.customers GROUP BY country ORDER BY country NULLS LAST',
  'SELECT kind, count(DISTINCT customer_id), min(happened_at), max(duration) FROM shop.events GROUP BY kind ORDER BY kind',
  'SELECT express, sum(total), count(*) FROM shop.orders GROUP BY express ORDER BY express',
  'SELECT sum(qty), sum(qty) / count(*), avg(qty), sum(qty)::float8 / count(*) FROM shop.orders',
  'SELECT count(*) FILTER (WHERE status = \'shipped\') * 100 / count(*) AS pct FROM shop.orders',
  'SELECT extract(year FROM ordered_at) AS y, sum(total) FROM shop.orders GROUP BY 1 ORDER BY 1',
  'SELECT customer_id, string_agg(status, \', \' ORDER BY id) FROM shop.orders GROUP BY customer_id ORDER BY customer_id',
  'SELECT customer_id, array_agg(id ORDER BY id) FROM shop.orders GROUP BY 1 ORDER BY 1',
  'SELECT DISTINCT status FROM shop.orders ORDER BY status',
  'SELECT DISTINCT ON (customer_id) customer_id, id, total FROM shop.orders ORDER BY customer_id, total DESC',
  'SELECT count(*), count(email), count(DISTINCT country) FROM shop.customers',
  'SELECT sum(score) / count(score), avg(score) FROM shop.customers',
]);
