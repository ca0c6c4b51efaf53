import type { CorpusEntry } from '../corpus-entry';

/** Grouping, aggregate functions, grouping sets and window functions. */
export const aggregates: CorpusEntry[] = [
  { name: 'count variants', sql: 'SELECT count(*), count(tier), count(DISTINCT tier), count(DISTINCT country) FROM customers' },
  { name: 'sum avg min max', sql: 'SELECT sum(balance), avg(balance), min(balance), max(balance) FROM customers' },
  { name: 'avg of integers', sql: 'SELECT avg(quantity), sum(quantity), avg(quantity)::int AS rounded FROM order_items' },
  { name: 'group by with having', sql: 'SELECT customer_id, count(*) AS n FROM orders GROUP BY customer_id HAVING count(*) > 1' },
  { name: 'group by expression', sql: "SELECT date_trunc('month', ordered_at) AS month, count(*) FROM orders GROUP BY 1" },
  { name: 'group by null keys', sql: 'SELECT tier, count(*) FROM customers GROUP BY tier' },
  {
    name: 'aggregate filter',
    sql: "SELECT count(*) FILTER (WHERE status = 'shipped') AS shipped, count(*) FILTER (WHERE status IS NULL) AS unknown, sum(shipping) FILTER (WHERE shipping > 4) AS big FROM orders",
  },
  { name: 'filter in group by', sql: "SELECT customer_id, count(*) FILTER (WHERE status IN ('shipped', 'pending')) AS open FROM orders GROUP BY customer_id" },
  { name: 'grouping sets', sql: 'SELECT country, tier, count(*), grouping(country, tier) AS g FROM customers GROUP BY GROUPING SETS ((country), (tier), ())' },
  { name: 'rollup', sql: 'SELECT department, manager_id, sum(salary) FROM employees GROUP BY ROLLUP (department, manager_id)' },
  {
    name: 'cube',
    sql: "SELECT status, extract(month FROM ordered_at) AS m, count(*) FROM orders WHERE ordered_at < '2024-04-01' GROUP BY CUBE (status, extract(month FROM ordered_at))",
  },
  { name: 'string_agg ordered', sql: "SELECT country, string_agg(name, ', ' ORDER BY name) AS names FROM customers GROUP BY country" },
  { name: 'string_agg distinct', sql: "SELECT string_agg(DISTINCT status, '|' ORDER BY status) FROM orders" },
  { name: 'array_agg ordered descending', sql: 'SELECT customer_id, array_agg(id ORDER BY id DESC) AS ids FROM orders GROUP BY customer_id' },
  { name: 'array_agg with nulls descending', sql: 'SELECT array_agg(shipping ORDER BY shipping DESC) FROM orders' },
  { name: 'array_agg filter', sql: "SELECT array_agg(name ORDER BY id) FILTER (WHERE tier = 'gold') FROM customers" },
  { name: 'bool_and and bool_or', sql: 'SELECT category, bool_and(active), bool_or(active), every(price > 1) FROM products GROUP BY category' },
  { name: 'statistics', sql: 'SELECT stddev(salary), stddev_pop(salary), variance(salary), var_pop(salary) FROM employees' },
  {
    name: 'ordered-set aggregates',
    sql: 'SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY salary), percentile_disc(0.25) WITHIN GROUP (ORDER BY salary), mode() WITHIN GROUP (ORDER BY department) FROM employees',
  },
  {
    name: 'correlation and regression',
    sql: 'SELECT corr(quantity, unit_price), covar_samp(quantity, unit_price), regr_slope(unit_price, quantity) FROM order_items',
  },
  {
    name: 'row_number rank dense_rank',
    sql: 'SELECT id, salary, row_number() OVER (ORDER BY salary DESC, id) AS rn, rank() OVER (ORDER BY salary DESC) AS r, dense_rank() OVER (ORDER BY salary DESC) AS dr FROM employees',
  },
  { name: 'rank within partition', sql: 'SELECT department, name, rank() OVER (PARTITION BY department ORDER BY salary DESC) FROM employees' },
  {
    name: 'percent_rank cume_dist ntile',
    sql: 'SELECT id, percent_rank() OVER (ORDER BY balance), cume_dist() OVER (ORDER BY balance), ntile(3) OVER (ORDER BY balance, id) FROM customers',
  },
  {
    name: 'lag and lead',
    sql: 'SELECT id, ordered_at, lag(id) OVER (ORDER BY ordered_at, id) AS prev, lead(id, 2, -1) OVER (ORDER BY ordered_at, id) AS next2 FROM orders',
  },
  {
    name: 'time between orders',
    sql: 'SELECT id, customer_id, ordered_at - lag(ordered_at) OVER (PARTITION BY customer_id ORDER BY ordered_at, id) AS gap FROM orders',
  },
  { name: 'running total', sql: 'SELECT id, shipping, sum(shipping) OVER (ORDER BY id) AS running FROM orders' },
  {
    name: 'running total per partition',
    sql: 'SELECT customer_id, id, sum(shipping) OVER (PARTITION BY customer_id ORDER BY ordered_at, id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM orders',
  },
  { name: 'moving average rows frame', sql: 'SELECT id, score, avg(score) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS ma FROM events' },
  { name: 'range frame with ties', sql: 'SELECT id, score, sum(score) OVER (ORDER BY score RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM events' },
  {
    name: 'range frame with interval offset',
    sql: "SELECT id, count(*) OVER (ORDER BY occurred_at RANGE BETWEEN INTERVAL '1 hour' PRECEDING AND CURRENT ROW) AS last_hour FROM events",
  },
  { name: 'groups frame', sql: 'SELECT id, score, count(*) OVER (ORDER BY score GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM events' },
  {
    name: 'frame exclusion',
    sql: 'SELECT order_id, line, sum(quantity) OVER (ORDER BY order_id, line ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW) FROM order_items',
  },
  {
    name: 'first last nth value',
    sql: 'SELECT department, name, first_value(name) OVER w, last_value(name) OVER w, nth_value(name, 2) OVER w FROM employees WINDOW w AS (PARTITION BY department ORDER BY salary DESC, id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)',
  },
  { name: 'window over whole set', sql: 'SELECT id, balance, balance - avg(balance) OVER () AS delta, count(*) OVER () AS n FROM customers' },
  { name: 'window with descending nulls', sql: 'SELECT id, discount_pct, row_number() OVER (ORDER BY discount_pct DESC, id) FROM orders' },
  { name: 'aggregate of window', sql: 'SELECT max(rn) FROM (SELECT row_number() OVER (PARTITION BY customer_id ORDER BY id) AS rn FROM orders) t' },
  { name: 'window filter aggregate', sql: "SELECT id, count(*) FILTER (WHERE kind = 'view') OVER (PARTITION BY customer_id) FROM events" },
  {
    name: 'top n per group via window',
    sql: 'SELECT * FROM (SELECT product_id, order_id, quantity, row_number() OVER (PARTITION BY product_id ORDER BY quantity DESC, order_id) AS rn FROM order_items) t WHERE rn = 1',
  },
  {
    name: 'sessionization',
    sql: "SELECT customer_id, id, sum(CASE WHEN occurred_at - prev > interval '30 minutes' OR prev IS NULL THEN 1 ELSE 0 END) OVER (PARTITION BY customer_id ORDER BY occurred_at, id) AS session FROM (SELECT *, lag(occurred_at) OVER (PARTITION BY customer_id ORDER BY occurred_at, id) AS prev FROM events WHERE customer_id IS NOT NULL) t",
  },
  {
    name: 'share of total',
    sql: 'SELECT category, sum(price) AS total, round(100.0 * sum(price) / sum(sum(price)) OVER (), 2) AS pct FROM products GROUP BY category',
  },
];
