import { category } from './entry';

/** Scalar, IN, ANY, ALL, EXISTS and row subqueries, correlated and not, with their NULL and empty-set rules. */
export const subqueries = category('subqueries', [
  'SELECT (SELECT id FROM shop.orders WHERE total > 1000)', 'SELECT id, (SELECT max(happened_at) FROM shop.events e WHERE e.customer_id = c.id) FROM shop.customers c ORDER BY id',
  'SELECT 5 > ALL (SELECT a FROM shop.numbers WHERE false)', 'SELECT 5 = ANY (SELECT a FROM shop.numbers WHERE false)', 'SELECT 5 > ALL (SELECT a FROM shop.numbers WHERE a < 5)',
  'SELECT 5 > ALL (SELECT a FROM shop.numbers)', 'SELECT 7 IN (SELECT a FROM shop.numbers)', 'SELECT 8 NOT IN (SELECT a FROM shop.numbers)', 'SELECT 8 NOT IN (SELECT a FROM shop.numbers WHERE a IS NOT NULL)',
  'SELECT NULL IN (SELECT a FROM shop.numbers)', 'SELECT 1 IN (SELECT a FROM shop.numbers WHERE false)', 'SELECT id FROM shop.numbers WHERE a > ANY (SELECT b * 3 FROM shop.numbers) ORDER BY id',
  'SELECT id FROM shop.numbers WHERE a >= ALL (SELECT a FROM shop.numbers WHERE a IS NOT NULL)', 'SELECT id FROM shop.numbers n WHERE NOT EXISTS (SELECT 1 FROM shop.numbers m WHERE m.a > n.a) ORDER BY id',
  'SELECT c.id FROM shop.customers c WHERE NOT EXISTS (SELECT FROM shop.orders o WHERE o.customer_id = c.id) ORDER BY 1',
  'SELECT id, total FROM shop.orders o WHERE total = (SELECT max(total) FROM shop.orders i WHERE i.status = o.status) ORDER BY id',
  'SELECT status, count(*) FROM shop.orders GROUP BY status HAVING count(*) > (SELECT count(*) / 4 FROM shop.orders) ORDER BY 1',
  'SELECT id FROM shop.orders ORDER BY (SELECT name FROM shop.customers c WHERE c.id = customer_id) NULLS FIRST, id',
  'SELECT id FROM shop.numbers WHERE (a, b) = (SELECT 7, 2)', 'SELECT id FROM shop.numbers WHERE (a, b) IN (SELECT a, b FROM shop.numbers WHERE b > 3) ORDER BY id',
  'SELECT (1, 2) < (1, 3), (1, NULL) = (1, NULL), (2, 1) > (1, 9)', 'SELECT id, CASE WHEN EXISTS (SELECT 1 FROM shop.events e WHERE e.customer_id = c.id) THEN \'active\' ELSE \'idle\' END FROM shop.customers c ORDER BY id',
  'SELECT id, ARRAY(SELECT kind FROM shop.events e WHERE e.customer_id = c.id ORDER BY e.id) FROM shop.customers c ORDER BY id',
  'SELECT o.id FROM shop.orders o WHERE o.customer_id IN (SELECT id FROM shop.customers WHERE vip) AND o.total > (SELECT avg(total) FROM shop.orders) ORDER BY 1',
  'SELECT max(n) FROM (SELECT customer_id, count(*) AS n FROM shop.orders GROUP BY 1) t',
  'SELECT c.name, t.n FROM shop.customers c JOIN (SELECT customer_id, count(*) AS n FROM shop.orders GROUP BY 1) t ON t.customer_id = c.id ORDER BY t.n DESC, c.name',
  'SELECT id, (SELECT count(*) FROM shop.orders o2 WHERE o2.total > o.total) + 1 AS position FROM shop.orders o ORDER BY id',
  'SELECT (SELECT count(*) FROM shop.orders) - (SELECT count(*) FROM shop.events)', 'SELECT (SELECT avg(total) FROM shop.orders)::numeric(10, 2)',
  'SELECT id FROM shop.customers WHERE country = (SELECT country FROM shop.customers WHERE id = 1) ORDER BY id',
]);
