import { category } from './entry';

/** UNION, INTERSECT and EXCEPT: ordering, limits, precedence, duplicates and how branch types unify. */
export const setOperations = category('set operations', [
  'SELECT status AS s FROM shop.orders UNION SELECT kind FROM shop.events ORDER BY s NULLS FIRST',
  'SELECT id FROM shop.orders UNION SELECT id FROM shop.events ORDER BY id DESC LIMIT 3',
  '(SELECT id FROM shop.orders ORDER BY total DESC LIMIT 2) UNION ALL (SELECT id FROM shop.events ORDER BY duration DESC NULLS LAST LIMIT 2) ORDER BY 1',
  'SELECT customer_id FROM shop.orders INTERSECT ALL SELECT customer_id FROM shop.events ORDER BY 1',
  'SELECT customer_id FROM shop.orders EXCEPT ALL SELECT customer_id FROM shop.events ORDER BY 1 NULLS FIRST',
  'SELECT 1 UNION SELECT 2 INTERSECT SELECT 2 ORDER BY 1', 'SELECT 1 UNION ALL SELECT 1 EXCEPT SELECT 2 ORDER BY 1', '(SELECT 1 UNION ALL SELECT 1) EXCEPT ALL SELECT 1',
  'SELECT 1::int UNION SELECT 2::bigint', 'SELECT 1 UNION SELECT 2.5 UNION SELECT 3::float8 ORDER BY 1', 'SELECT 1.5::numeric UNION ALL SELECT 2::float8',
  'SELECT signup FROM shop.customers WHERE id = 1 UNION ALL SELECT created_at FROM shop.customers WHERE id = 1', 'SELECT NULL AS x UNION ALL SELECT 1 ORDER BY 1',
  'SELECT NULL UNION SELECT NULL', "SELECT 'a'::varchar(3) UNION SELECT 'abcd'::text ORDER BY 1", "SELECT x FROM (SELECT 1 AS x UNION ALL SELECT 2) t ORDER BY x DESC",
  'SELECT id, total FROM shop.orders WHERE id < 103 UNION SELECT id, qty FROM shop.orders WHERE id < 103 ORDER BY 1, 2', 'SELECT ARRAY[1, 2] UNION SELECT ARRAY[1, 2]',
  "SELECT '{\"a\": 1}'::jsonb UNION SELECT '{\"a\": 1}'::jsonb", 'SELECT count(*) FROM (SELECT status FROM shop.orders UNION SELECT status FROM shop.orders) t',
  'VALUES (1), (2.5)', "VALUES (1, 'a'), (2, NULL) ORDER BY 1", "SELECT * FROM (VALUES (date '2024-01-01'), (NULL)) v(d) ORDER BY d", 'VALUES (1, 2) UNION VALUES (1, 2)',
  'SELECT id, status FROM shop.orders WHERE id = 101 UNION ALL SELECT 0, NULL', 'SELECT 1 AS a, 2 AS b UNION ALL SELECT 3, 4 ORDER BY b DESC',
  "SELECT 'x' AS label, 1 AS n UNION ALL SELECT 'y', 2.5 ORDER BY n", 'SELECT total FROM shop.orders UNION SELECT qty FROM shop.orders ORDER BY 1 LIMIT 5',
  "SELECT email FROM shop.customers WHERE email LIKE '%.com' INTERSECT SELECT email FROM shop.customers WHERE vip ORDER BY 1",
  'SELECT day FROM shop.numbers EXCEPT SELECT signup FROM shop.customers ORDER BY 1 NULLS LAST',
]);
