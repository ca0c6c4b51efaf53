import type { CorpusEntry } from '../corpus-entry';

/** Projection, filtering, expressions, NULL handling, sorting and paging. */
export const basics: CorpusEntry[] = [
  { name: 'select star', sql: 'SELECT * FROM customers' },
  { name: 'where with and/or/not', sql: "SELECT id, name FROM customers WHERE (country = 'US' OR country = 'GB') AND NOT tier = 'silver'" },
  { name: 'in list and not in', sql: "SELECT id FROM orders WHERE status IN ('shipped', 'pending') AND customer_id NOT IN (1, 2)" },
  { name: 'between dates', sql: "SELECT id FROM orders WHERE ordered_at BETWEEN '2024-02-01' AND '2024-03-31 23:59:59'" },
  { name: 'is null and is not null', sql: 'SELECT id, tier IS NULL AS no_tier, country IS NOT NULL AS has_country FROM customers' },
  { name: 'is distinct from', sql: "SELECT id FROM orders WHERE status IS DISTINCT FROM 'shipped'" },
  {
    name: 'coalesce and nullif',
    sql: "SELECT id, coalesce(shipping, 0) + 1 AS s, nullif(discount_pct, 0) AS d, coalesce(note, status, 'n/a') AS n FROM orders",
  },
  {
    name: 'searched case',
    sql: "SELECT id, CASE WHEN balance < 0 THEN 'debt' WHEN balance = 0 THEN 'zero' WHEN balance IS NULL THEN 'unknown' ELSE 'credit' END AS kind FROM customers",
  },
  { name: 'simple case', sql: "SELECT id, CASE tier WHEN 'gold' THEN 3 WHEN 'silver' THEN 2 WHEN 'bronze' THEN 1 ELSE 0 END AS rank FROM customers" },
  {
    name: 'integer division and modulo',
    sql: 'SELECT order_id, line, quantity / 2 AS half, quantity % 3 AS rest, -quantity / 4 AS neg, 7 / 2 * 2 AS assoc FROM order_items',
  },
  {
    name: 'integer division in averages',
    sql: 'SELECT order_id, sum(quantity) / count(*) AS int_avg, sum(quantity)::numeric / count(*) AS exact_avg FROM order_items GROUP BY order_id',
  },
  { name: 'decimal arithmetic', sql: 'SELECT order_id, line, quantity * unit_price AS amount, round(unit_price * 1.2, 2) AS gross FROM order_items' },
  { name: 'float arithmetic', sql: 'SELECT id, weight_kg * 2.5 AS w, weight_kg / 3 AS third FROM products' },
  { name: 'negative numbers and abs', sql: 'SELECT id, abs(balance) AS a, sign(balance) AS s, -balance AS n FROM customers WHERE balance IS NOT NULL' },
  {
    name: 'rounding and truncation',
    sql: 'SELECT id, round(balance) AS r0, round(balance, 1) AS r1, trunc(balance) AS t, ceil(balance) AS c, floor(balance) AS f FROM customers',
  },
  {
    name: 'math functions',
    sql: 'SELECT id, power(price, 2) AS p, sqrt(price) AS s, ln(price) AS l, log(price) AS l10, exp(weight_kg) AS e, mod(id, 3) AS m FROM products WHERE price > 0',
  },
  { name: 'greatest and least', sql: 'SELECT id, greatest(shipping, discount_pct, 1) AS g, least(shipping, discount_pct) AS l FROM orders' },
  { name: 'order by nulls default ascending', sql: 'SELECT id, tier FROM customers ORDER BY tier, id' },
  { name: 'order by nulls default descending', sql: 'SELECT id, tier FROM customers ORDER BY tier DESC, id' },
  { name: 'order by nulls first and last', sql: 'SELECT id, country FROM customers ORDER BY country NULLS FIRST, id DESC NULLS LAST' },
  { name: 'order by expression and position', sql: 'SELECT name, length(name) AS len FROM customers ORDER BY 2 DESC, 1' },
  { name: 'order by using', sql: 'SELECT id, shipping FROM orders ORDER BY shipping USING >, id USING <' },
  { name: 'limit and offset', sql: 'SELECT id FROM orders ORDER BY ordered_at, id LIMIT 5 OFFSET 3' },
  { name: 'fetch first rows only', sql: 'SELECT id FROM orders ORDER BY id DESC FETCH FIRST 3 ROWS ONLY' },
  { name: 'offset rows fetch next', sql: 'SELECT id FROM orders ORDER BY id OFFSET 2 ROWS FETCH NEXT 2 ROWS ONLY' },
  { name: 'limit all', sql: 'SELECT id FROM employees ORDER BY id LIMIT ALL' },
  { name: 'select distinct', sql: 'SELECT DISTINCT country FROM customers' },
  {
    name: 'distinct on',
    sql: 'SELECT DISTINCT ON (customer_id) customer_id, id, ordered_at FROM orders WHERE customer_id IS NOT NULL ORDER BY customer_id, ordered_at DESC, id',
  },
  {
    name: 'distinct on expression',
    sql: "SELECT DISTINCT ON (date_trunc('month', ordered_at)) date_trunc('month', ordered_at) AS month, id FROM orders ORDER BY date_trunc('month', ordered_at), id DESC",
  },
  {
    name: 'union, intersect, except',
    sql: "SELECT customer_id FROM orders UNION SELECT id FROM customers WHERE tier = 'gold' EXCEPT SELECT 7 INTERSECT SELECT 7",
  },
  { name: 'union all keeps duplicates', sql: "SELECT country FROM customers UNION ALL SELECT 'US'" },
  {
    name: 'intersect all and except all',
    sql: 'SELECT product_id FROM order_items INTERSECT ALL SELECT product_id FROM order_items WHERE quantity > 1 EXCEPT ALL SELECT 7',
  },
  { name: 'values list', sql: "SELECT * FROM (VALUES (1, 'one'), (2, 'two'), (3, NULL)) AS v(n, word)" },
  { name: 'boolean logic with nulls', sql: 'SELECT id, active AND price > 10 AS a, active OR price > 1000 AS o, NOT active AS n FROM products' },
  { name: 'quoted identifiers', sql: 'SELECT id AS "Customer Id", name AS "select" FROM customers WHERE "id" < 4' },
  {
    name: 'comparison chains with any and all',
    sql: 'SELECT id FROM products WHERE price > ALL (SELECT unit_price FROM order_items WHERE product_id = 2) OR price = ANY (SELECT 4.5)',
  },
  { name: 'isnull and notnull', sql: 'SELECT id FROM customers WHERE email ISNULL OR city NOTNULL' },
];
