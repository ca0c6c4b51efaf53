import type { CorpusEntry } from '../corpus-entry';

/** Joins of every kind, subqueries, LATERAL and common table expressions, recursive ones included. */
export const joins: CorpusEntry[] = [
  { name: 'inner join', sql: 'SELECT o.id, c.name FROM orders o JOIN customers c ON c.id = o.customer_id' },
  { name: 'left join keeps unmatched', sql: 'SELECT c.id, count(o.id) AS orders FROM customers c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.id' },
  { name: 'right join', sql: 'SELECT c.name, o.id FROM customers c RIGHT JOIN orders o ON o.customer_id = c.id' },
  {
    name: 'full outer join',
    sql: "SELECT c.id AS customer, o.id AS order_id FROM (SELECT * FROM customers WHERE country = 'US') c FULL OUTER JOIN (SELECT * FROM orders WHERE status = 'pending') o ON o.customer_id = c.id",
  },
  { name: 'cross join', sql: "SELECT c.id, p.id FROM customers c CROSS JOIN products p WHERE c.id < 3 AND p.category = 'software'" },
  {
    name: 'join using',
    sql: "SELECT order_id, line, quantity FROM order_items JOIN (SELECT id AS order_id, status FROM orders) o USING (order_id) WHERE status = 'shipped'",
  },
  {
    name: 'natural join',
    sql: "SELECT * FROM (SELECT id, name FROM customers) a NATURAL JOIN (SELECT id, status FROM orders WHERE id < 0 UNION ALL SELECT 3, 'x') b",
  },
  { name: 'self join on hierarchy', sql: 'SELECT e.name, m.name AS manager FROM employees e LEFT JOIN employees m ON m.id = e.manager_id' },
  {
    name: 'multi-way join with aggregates',
    sql: 'SELECT c.country, p.category, sum(i.quantity * i.unit_price) AS revenue FROM order_items i JOIN orders o ON o.id = i.order_id JOIN products p ON p.id = i.product_id LEFT JOIN customers c ON c.id = o.customer_id GROUP BY c.country, p.category',
  },
  { name: 'join with inequality', sql: 'SELECT a.id, b.id FROM orders a JOIN orders b ON a.customer_id = b.customer_id AND a.ordered_at < b.ordered_at' },
  { name: 'anti join with not exists', sql: 'SELECT id, name FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id)' },
  { name: 'semi join with exists', sql: 'SELECT id FROM products p WHERE EXISTS (SELECT 1 FROM order_items i WHERE i.product_id = p.id AND i.quantity >= 3)' },
  { name: 'in subquery', sql: "SELECT name FROM customers WHERE id IN (SELECT customer_id FROM orders WHERE status = 'cancelled')" },
  { name: 'not in subquery with nulls', sql: 'SELECT id FROM customers WHERE id NOT IN (SELECT customer_id FROM orders)' },
  {
    name: 'correlated scalar subquery',
    sql: 'SELECT c.id, (SELECT max(o.ordered_at) FROM orders o WHERE o.customer_id = c.id) AS last_order FROM customers c',
  },
  {
    name: 'correlated subquery in where',
    sql: 'SELECT i.order_id, i.line FROM order_items i WHERE i.unit_price < (SELECT p.price FROM products p WHERE p.id = i.product_id)',
  },
  {
    name: 'subquery in from with aggregate',
    sql: 'SELECT avg(total) AS avg_order FROM (SELECT order_id, sum(quantity * unit_price) AS total FROM order_items GROUP BY order_id) t',
  },
  { name: 'any with array', sql: "SELECT id FROM orders WHERE status = ANY (ARRAY['pending', 'refunded'])" },
  { name: 'all with subquery', sql: 'SELECT id FROM employees WHERE salary >= ALL (SELECT salary FROM employees WHERE salary IS NOT NULL)' },
  {
    name: 'lateral subquery top n per group',
    sql: 'SELECT c.id, l.id AS order_id FROM customers c CROSS JOIN LATERAL (SELECT o.id FROM orders o WHERE o.customer_id = c.id ORDER BY o.ordered_at DESC, o.id LIMIT 2) l',
  },
  {
    name: 'left join lateral',
    sql: "SELECT c.id, l.n FROM customers c LEFT JOIN LATERAL (SELECT count(*) AS n FROM orders o WHERE o.customer_id = c.id AND o.status = 'shipped') l ON true",
  },
  { name: 'comma lateral', sql: 'SELECT p.id, x.double_price FROM products p, LATERAL (SELECT p.price * 2 AS double_price) x' },
  {
    name: 'cte',
    sql: 'WITH totals AS (SELECT order_id, sum(quantity * unit_price) AS total FROM order_items GROUP BY order_id) SELECT o.customer_id, max(t.total) AS biggest FROM totals t JOIN orders o ON o.id = t.order_id GROUP BY o.customer_id',
  },
  {
    name: 'multiple ctes referencing each other',
    sql: "WITH shipped AS (SELECT * FROM orders WHERE status = 'shipped'), per_customer AS (SELECT customer_id, count(*) AS n FROM shipped GROUP BY customer_id) SELECT c.name, p.n FROM per_customer p JOIN customers c ON c.id = p.customer_id",
  },
  { name: 'cte with column names', sql: 'WITH t(a, b) AS (SELECT id, name FROM employees) SELECT a, b FROM t WHERE a > 5' },
  { name: 'recursive counter', sql: 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT sum(n), count(*) FROM r' },
  {
    name: 'recursive hierarchy with depth and path',
    sql: "WITH RECURSIVE chain AS (SELECT id, name, manager_id, 0 AS depth, name::text AS path FROM employees WHERE manager_id IS NULL UNION ALL SELECT e.id, e.name, e.manager_id, c.depth + 1, c.path || ' > ' || e.name FROM employees e JOIN chain c ON e.manager_id = c.id) SELECT id, depth, path FROM chain",
  },
  {
    name: 'recursive referral tree',
    sql: 'WITH RECURSIVE refs AS (SELECT id, referred_by, 1 AS level FROM customers WHERE referred_by IS NULL UNION ALL SELECT c.id, c.referred_by, r.level + 1 FROM customers c JOIN refs r ON c.referred_by = r.id) SELECT level, count(*) FROM refs GROUP BY level',
  },
  { name: 'recursive union distinct', sql: 'WITH RECURSIVE r(n) AS (SELECT 1 UNION SELECT (n * 2) % 7 FROM r) SELECT n FROM r' },
  {
    name: 'recursive date spine',
    sql: "WITH RECURSIVE days(d) AS (SELECT date '2024-02-26' UNION ALL SELECT d + 1 FROM days WHERE d < date '2024-03-02') SELECT d, extract(dow FROM d) AS dow FROM days",
  },
  {
    name: 'exists with correlated aggregate',
    sql: 'SELECT c.id FROM customers c WHERE EXISTS (SELECT 1 FROM orders o JOIN order_items i ON i.order_id = o.id WHERE o.customer_id = c.id GROUP BY o.id HAVING sum(i.quantity) > 3)',
  },
  {
    name: 'derived table join',
    sql: 'SELECT p.name, s.sold FROM products p JOIN (SELECT product_id, sum(quantity) AS sold FROM order_items GROUP BY product_id) s ON s.product_id = p.id WHERE s.sold > 2',
  },
];
