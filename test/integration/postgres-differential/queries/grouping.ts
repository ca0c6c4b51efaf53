import { category } from './entry';

export const grouping = category('grouping sets', [
  'SELECT status, express, count(*) FROM shop.orders GROUP BY GROUPING SETS ((status), (express), ()) ORDER BY 1, 2',
  'SELECT status, express, count(*), grouping(status, express) FROM shop.orders GROUP BY ROLLUP (status, express) ORDER BY 1, 2',
  'SELECT status, express, sum(total) FROM shop.orders GROUP BY CUBE (status, express) ORDER BY 1, 2',
  'SELECT country, vip, count(*) FROM shop.customers GROUP BY ROLLUP (country, vip) ORDER BY country NULLS LAST, vip NULLS LAST',
  'SELECT kind, count(*) FROM shop.events GROUP BY ROLLUP (kind) ORDER BY kind NULLS FIRST',
  'SELECT grouping(kind), kind, sum(duration) FROM shop.events GROUP BY ROLLUP (kind) ORDER BY 1, 2',
  'SELECT flag, b > 2 AS big, count(*), sum(a) FROM shop.numbers GROUP BY GROUPING SETS ((flag), (b > 2)) ORDER BY 1, 2',
  "SELECT coalesce(status, '(all)') AS status, count(*) FROM shop.orders GROUP BY ROLLUP (status) ORDER BY 1",
  'SELECT extract(month FROM ordered_at) AS m, status, count(*) FROM shop.orders GROUP BY GROUPING SETS ((1), (1, 2)) ORDER BY 1, 2',
  "SELECT date_trunc('month', ordered_at) AS month, count(*) FROM shop.orders GROUP BY ROLLUP (1) ORDER BY 1",
  'SELECT status, count(*) FROM shop.orders GROUP BY status HAVING sum(total) > 100 ORDER BY 1',
  'SELECT status, customer_id, count(*) FROM shop.orders GROUP BY CUBE (status, customer_id) HAVING count(*) > 2 ORDER BY 1, 2',
  'SELECT country, count(*) FILTER (WHERE vip), count(*) FROM shop.customers GROUP BY GROUPING SETS ((country), ()) ORDER BY 1',
  'SELECT grouping(status), grouping(express), count(*) FROM shop.orders GROUP BY CUBE (status, express) ORDER BY 1, 2, 3',
  'SELECT a % 2 AS parity, flag, max(x) FROM shop.numbers GROUP BY ROLLUP (a % 2, flag) ORDER BY 1, 2',
]);
