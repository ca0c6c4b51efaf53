import { category } from './entry';

/** CTEs: chained, reused, with column lists and materialization, and recursive ones with their type rules. */
export const withQueries = category('with queries', [
  'WITH totals AS (SELECT customer_id, sum(total) AS spent FROM shop.orders GROUP BY 1), ranked AS (SELECT *, rank() OVER (ORDER BY spent DESC) AS r FROM totals) SELECT c.name, r.spent, r.r FROM ranked r JOIN shop.customers c ON c.id = r.customer_id ORDER BY r.r, c.name',
  'WITH s AS (SELECT status, count(*) AS n FROM shop.orders GROUP BY 1) SELECT a.status, b.status FROM s a JOIN s b ON a.n = b.n AND a.status < b.status ORDER BY 1, 2',
  'WITH s(st, n) AS (SELECT status, count(*) FROM shop.orders GROUP BY 1) SELECT st, n FROM s ORDER BY n DESC, st NULLS LAST',
  'WITH m AS MATERIALIZED (SELECT id, total FROM shop.orders) SELECT count(*), sum(total) FROM m',
  'WITH m AS NOT MATERIALIZED (SELECT id, total FROM shop.orders) SELECT id FROM m WHERE total > 300 ORDER BY id',
  'WITH orders AS (SELECT 1 AS id) SELECT * FROM orders',
  'WITH a AS (SELECT 1 AS x), b AS (SELECT x + 1 AS y FROM a), c AS (SELECT y * 10 AS z FROM b) SELECT * FROM a, b, c',
  'WITH first_orders AS (SELECT DISTINCT ON (customer_id) customer_id, id, ordered_at FROM shop.orders ORDER BY customer_id, ordered_at) SELECT customer_id, id FROM first_orders ORDER BY 1 NULLS LAST',
  'SELECT * FROM (WITH x AS (SELECT 2 AS v) SELECT v * 3 AS w FROM x) t',
  'WITH x AS (SELECT 1 AS v) SELECT (WITH y AS (SELECT v + 1 AS w FROM x) SELECT w FROM y)',
  'WITH RECURSIVE fib(n, a, b) AS (SELECT 1, 0::bigint, 1::bigint UNION ALL SELECT n + 1, b, a + b FROM fib WHERE n < 20) SELECT n, a FROM fib ORDER BY n',
  'WITH RECURSIVE t(n) AS (SELECT 1 UNION SELECT n % 3 + 1 FROM t) SELECT n FROM t ORDER BY n',
  "WITH RECURSIVE s(i, str) AS (SELECT 1, 'a'::text UNION ALL SELECT i + 1, str || chr(97 + i) FROM s WHERE i < 5) SELECT i, str FROM s ORDER BY i",
  'WITH RECURSIVE f(n, fact) AS (SELECT 1, 1::numeric UNION ALL SELECT n + 1, fact * (n + 1) FROM f WHERE n < 25) SELECT n, fact FROM f WHERE n IN (20, 25) ORDER BY n',
  "WITH RECURSIVE months(m) AS (SELECT date '2024-01-01' UNION ALL SELECT (m + interval '1 month')::date FROM months WHERE m < date '2024-06-01') SELECT m, to_char(m, 'Mon') FROM months ORDER BY m",
  'WITH RECURSIVE p(n, path) AS (SELECT 1, ARRAY[1] UNION ALL SELECT n + 1, path || (n + 1) FROM p WHERE n < 4) SELECT n, path FROM p ORDER BY n',
  'WITH RECURSIVE d(n) AS (SELECT 1 UNION ALL SELECT n * 2 FROM d WHERE n < 1000) SELECT count(*), max(n) FROM d',
  'WITH RECURSIVE d(n) AS (SELECT 1 UNION ALL SELECT n * 10 FROM d WHERE n < 10000000000) SELECT max(n) FROM d',
  'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 0.5 FROM r WHERE n < 3) SELECT * FROM r',
  'WITH RECURSIVE chain(id, next) AS (SELECT id, customer_id FROM shop.orders WHERE id = 101 UNION ALL SELECT o.id, o.customer_id FROM shop.orders o JOIN chain c ON o.id = c.id + 1 WHERE o.id < 105) SELECT * FROM chain ORDER BY id',
  'WITH RECURSIVE walk(day, n) AS (SELECT min(ordered_at)::date, 1 FROM shop.orders UNION ALL SELECT day + 7, n + 1 FROM walk WHERE n < 4) SELECT day, n FROM walk ORDER BY n',
  'WITH c AS (SELECT country, count(*) AS n FROM shop.customers GROUP BY country) SELECT country, n, n * 100 / sum(n) OVER () FROM c ORDER BY country NULLS LAST',
  'WITH x AS (SELECT id, total FROM shop.orders), y AS (SELECT avg(total) AS a FROM x) SELECT id FROM x, y WHERE total > a ORDER BY id',
  "WITH e AS (SELECT customer_id, kind FROM shop.events) SELECT kind, count(*) FROM e GROUP BY kind UNION ALL SELECT 'all', count(*) FROM e ORDER BY 1",
]);
