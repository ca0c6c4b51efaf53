import { category } from './entry';

const frames = [
  'sum(total) OVER (ORDER BY qty RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING)', 'count(*) OVER (ORDER BY total RANGE BETWEEN 50 PRECEDING AND CURRENT ROW)',
  "sum(qty) OVER (ORDER BY ordered_at RANGE BETWEEN INTERVAL '7 days' PRECEDING AND CURRENT ROW)", "count(*) OVER (ORDER BY ordered_at RANGE BETWEEN CURRENT ROW AND INTERVAL '1 month' FOLLOWING)",
  'sum(qty) OVER (ORDER BY qty GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING)', 'sum(total) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)',
  'sum(qty) OVER (ORDER BY qty ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE TIES)', 'sum(qty) OVER (ORDER BY qty RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE GROUP)',
  'sum(qty) OVER (ORDER BY qty)', 'count(*) OVER (ORDER BY qty)', 'sum(qty) OVER (ORDER BY qty, id ROWS UNBOUNDED PRECEDING)', 'avg(total) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)',
  'ntile(5) OVER (ORDER BY id)', 'ntile(20) OVER (ORDER BY id)', 'lag(total, 1, 0) OVER (ORDER BY id)', "lag(note, 1, 'n/a') OVER (ORDER BY id)", 'lead(ordered_at, 2) OVER (ORDER BY id)',
  'lead(id, 1, -1) OVER (PARTITION BY customer_id ORDER BY id)', 'first_value(status) OVER (PARTITION BY customer_id ORDER BY id)', 'last_value(id) OVER (PARTITION BY customer_id ORDER BY id)',
  'nth_value(id, 3) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)', 'nth_value(total, 2) OVER (PARTITION BY status ORDER BY id)', 'cume_dist() OVER (ORDER BY qty)',
  'percent_rank() OVER (PARTITION BY status ORDER BY total)', 'rank() OVER (ORDER BY status NULLS FIRST)', 'dense_rank() OVER (ORDER BY status DESC)', 'row_number() OVER (ORDER BY total DESC NULLS LAST)',
  'rank() OVER (PARTITION BY express ORDER BY qty DESC)', 'min(ordered_at) OVER (PARTITION BY customer_id)', 'sum(qty) OVER (PARTITION BY customer_id ORDER BY ordered_at ROWS UNBOUNDED PRECEDING)',
  'avg(qty) OVER (PARTITION BY status)', 'count(note) OVER ()', 'max(total) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 2 PRECEDING)', 'first_value(total) OVER (ORDER BY id DESC)',
  'last_value(total) OVER (ORDER BY qty RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)', 'lag(qty, 3) OVER (ORDER BY id)', 'sum(total) OVER (PARTITION BY date_trunc(\'month\', ordered_at))',
  'round((100 * total / sum(total) OVER (PARTITION BY customer_id))::numeric, 1)', 'qty - avg(qty) OVER ()', 'total = max(total) OVER (PARTITION BY status)',
];

/** Window functions with RANGE, ROWS and GROUPS frames, offsets, exclusions, defaults and ranks over ties. */
export const windowFrames = category('window frames', [
  ...frames.map((fn) => `SELECT id, ${fn} FROM shop.orders ORDER BY id`),
  'SELECT id, sum(total) OVER w, count(*) OVER w2 FROM shop.orders WINDOW w AS (PARTITION BY customer_id), w2 AS (w ORDER BY id) ORDER BY id',
  'SELECT id, happened_at - first_value(happened_at) OVER (PARTITION BY customer_id ORDER BY happened_at) FROM shop.events ORDER BY id',
  'SELECT status, count(*), sum(count(*)) OVER (ORDER BY status NULLS FIRST) FROM shop.orders GROUP BY status ORDER BY status NULLS FIRST',
  'SELECT customer_id, sum(total), rank() OVER (ORDER BY sum(total) DESC), round((100 * sum(total) / sum(sum(total)) OVER ())::numeric, 2) FROM shop.orders GROUP BY 1 ORDER BY 1 NULLS LAST',
  'SELECT * FROM (SELECT id, customer_id, total, rank() OVER (PARTITION BY customer_id ORDER BY total DESC) AS r FROM shop.orders) t WHERE r <= 2 ORDER BY customer_id, r',
  'SELECT id, a, sum(a) OVER (ORDER BY a RANGE BETWEEN 5 PRECEDING AND 5 FOLLOWING) FROM shop.numbers ORDER BY id',
  'SELECT id, x, avg(x) OVER (ORDER BY x RANGE BETWEEN 1.5 PRECEDING AND CURRENT ROW) FROM shop.numbers ORDER BY id',
  'SELECT id, day, count(*) OVER (ORDER BY day RANGE BETWEEN INTERVAL \'31 days\' PRECEDING AND CURRENT ROW) FROM shop.numbers ORDER BY id',
  'SELECT id, lag(a) OVER (ORDER BY id) IS DISTINCT FROM a FROM shop.numbers ORDER BY id',
  'SELECT id, ntile(3) OVER (PARTITION BY flag ORDER BY id), cume_dist() OVER (PARTITION BY flag ORDER BY a) FROM shop.numbers ORDER BY id',
  'SELECT id, row_number() OVER (PARTITION BY kind ORDER BY happened_at DESC) FROM shop.events ORDER BY id',
  'SELECT kind, count(*) OVER (PARTITION BY kind), count(*) OVER () FROM shop.events ORDER BY id',
  'SELECT id, sum(duration) OVER (ORDER BY happened_at RANGE BETWEEN INTERVAL \'1 hour\' PRECEDING AND CURRENT ROW) FROM shop.events ORDER BY id',
  'SELECT id, array_agg(id) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM shop.orders ORDER BY id',
  'SELECT id, string_agg(status, \',\') OVER (PARTITION BY customer_id ORDER BY id) FROM shop.orders ORDER BY id',
]);
