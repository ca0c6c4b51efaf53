import { category } from './entry';

const functions = ['row_number()', 'rank()', 'dense_rank()', 'percent_rank()', 'cume_dist()', 'ntile(3)', 'lag(total)', 'lead(total)', 'lag(total, 2, 0)', 'first_value(total)',
  'last_value(total)', 'nth_value(total, 2)', 'sum(total)', 'avg(total)', 'count(*)', 'min(total)', 'max(qty)', 'sum(qty)'];
const windows = ['ORDER BY id', 'PARTITION BY customer_id ORDER BY id', 'ORDER BY total DESC', 'PARTITION BY status ORDER BY ordered_at ROWS BETWEEN 1 PRECEDING AND CURRENT ROW'];

export const windowsCategory = category('windows', [
  ...functions.flatMap((fn) => windows.map((window) => `SELECT id, ${fn} OVER (${window}) FROM shop.orders ORDER BY id`)),
  'SELECT id, sum(total) OVER () FROM shop.orders ORDER BY id',
  'SELECT id, sum(qty) OVER (ORDER BY id) / 2 FROM shop.orders ORDER BY id',
  'SELECT id, total / sum(total) OVER () AS share FROM shop.orders ORDER BY id',
  'SELECT id, qty * 100 / sum(qty) OVER () AS pct FROM shop.orders ORDER BY id',
  'SELECT id, avg(total) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM shop.orders ORDER BY id',
  'SELECT id, sum(total) OVER (ORDER BY ordered_at RANGE BETWEEN INTERVAL \'30 days\' PRECEDING AND CURRENT ROW) FROM shop.orders ORDER BY id',
  'SELECT id, count(*) OVER w, sum(total) OVER w FROM shop.orders WINDOW w AS (PARTITION BY customer_id) ORDER BY id',
  'SELECT * FROM (SELECT id, customer_id, row_number() OVER (PARTITION BY customer_id ORDER BY total DESC) AS rn FROM shop.orders) t WHERE rn = 1 ORDER BY customer_id',
  'SELECT id, total - lag(total) OVER (ORDER BY id) AS delta FROM shop.orders ORDER BY id',
  'SELECT id, rank() OVER (ORDER BY status) FROM shop.orders ORDER BY id',
  'SELECT id, first_value(id) OVER (PARTITION BY express ORDER BY total DESC NULLS LAST) FROM shop.orders ORDER BY id',
  'SELECT id, last_value(id) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM shop.orders ORDER BY id',
  'SELECT id, sum(total) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING EXCLUDE CURRENT ROW) FROM shop.orders ORDER BY id',
  'SELECT id, count(*) OVER (ORDER BY qty GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM shop.orders ORDER BY id',
  'SELECT customer_id, sum(total), rank() OVER (ORDER BY sum(total) DESC) FROM shop.orders GROUP BY customer_id ORDER BY 3, 1',
  'SELECT id, round(avg(total) OVER (PARTITION BY status)::numeric, 2) FROM shop.orders ORDER BY id',
  'SELECT id, ntile(4) OVER (ORDER BY total), percent_rank() OVER (ORDER BY qty) FROM shop.orders ORDER BY id',
  'SELECT id, lag(id) OVER (PARTITION BY kind ORDER BY happened_at), lead(kind, 1, \'none\') OVER (ORDER BY id) FROM shop.events ORDER BY id',
  'SELECT id, sum(duration) OVER (ORDER BY id) FROM shop.events ORDER BY id',
  'SELECT id, a, sum(a) OVER (ORDER BY id) / count(a) OVER (ORDER BY id) FROM shop.numbers ORDER BY id',
]);
