import { category } from './entry';

/** GROUPING SETS, ROLLUP and CUBE with grouping(), HAVING, labels and ordering by the grouping level. */
export const rollups = category('grouping sets and rollups', [
  'SELECT status, express, count(*) FROM shop.orders GROUP BY ROLLUP (status, express) HAVING grouping(express) = 1 ORDER BY 1 NULLS LAST',
  "SELECT country, vip, signup > '2023-06-01' AS late, count(*) FROM shop.customers GROUP BY CUBE (country, vip, 3) ORDER BY 1, 2, 3",
  'SELECT grouping(country, vip, score > 50), count(*) FROM shop.customers GROUP BY CUBE (country, vip, score > 50) ORDER BY 1, 2',
  'SELECT status, count(*) FROM shop.orders GROUP BY GROUPING SETS ((status), ()) ORDER BY grouping(status), status NULLS LAST',
  'SELECT status, express, sum(qty) FROM shop.orders GROUP BY ROLLUP ((status, express)) ORDER BY 1, 2',
  'SELECT status, express, count(*) FROM shop.orders GROUP BY status, ROLLUP (express) ORDER BY 1, 2',
  "SELECT CASE WHEN grouping(status) = 1 THEN 'total' ELSE coalesce(status, 'unknown') END AS status, sum(total) FROM shop.orders GROUP BY ROLLUP (status) ORDER BY 1",
  'SELECT status, count(DISTINCT customer_id), sum(total) FILTER (WHERE express) FROM shop.orders GROUP BY CUBE (status) ORDER BY 1 NULLS FIRST',
  "SELECT date_trunc('month', ordered_at)::date AS month, status, sum(total) FROM shop.orders GROUP BY ROLLUP (1, 2) ORDER BY 1, 2",
  'SELECT extract(quarter FROM ordered_at) AS q, extract(month FROM ordered_at) AS m, count(*) FROM shop.orders GROUP BY ROLLUP (q, m) ORDER BY 1, 2',
  'SELECT flag, b % 2 AS odd, count(*), sum(a), avg(x) FROM shop.numbers GROUP BY CUBE (flag, b % 2) ORDER BY 1, 2',
  'SELECT flag, count(*) FROM shop.numbers GROUP BY GROUPING SETS (flag, ()) ORDER BY grouping(flag), flag',
  'SELECT kind, customer_id, count(*), grouping(kind) + grouping(customer_id) AS level FROM shop.events GROUP BY GROUPING SETS ((kind, customer_id), (kind), ()) ORDER BY level, 1, 2',
  'SELECT country, count(*) FROM shop.customers GROUP BY ROLLUP (country) HAVING count(*) > 1 ORDER BY 1 NULLS LAST',
  'SELECT status, express, count(*) FROM shop.orders GROUP BY GROUPING SETS (ROLLUP (status), CUBE (express)) ORDER BY 1, 2, 3',
  "SELECT vip, country, string_agg(name, ', ' ORDER BY name) FROM shop.customers GROUP BY GROUPING SETS ((vip), (country)) ORDER BY 1, 2",
  'SELECT status, round(avg(total)::numeric, 2), grouping(status) FROM shop.orders GROUP BY ROLLUP (status) ORDER BY 3, 1',
  'SELECT customer_id, status, count(*) FROM shop.orders WHERE customer_id < 4 GROUP BY CUBE (customer_id, status) ORDER BY 1, 2',
  'SELECT kind, sum(duration), rank() OVER (ORDER BY sum(duration) DESC NULLS LAST) FROM shop.events GROUP BY ROLLUP (kind) ORDER BY 1',
  "SELECT coalesce(country, 'All') AS country, coalesce(vip::text, 'all') AS vip, count(*) FROM shop.customers GROUP BY CUBE (country, vip) ORDER BY 1, 2",
]);
