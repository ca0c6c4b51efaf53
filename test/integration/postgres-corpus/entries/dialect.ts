import type { CorpusEntry } from '../corpus-entry';

/** Postgres-only spellings and lexical corners, including the ones Oxbow does not translate. */
export const dialect: CorpusEntry[] = [
  {
    name: 'strings and comments that look like sql',
    sql: "SELECT '-- not a comment' AS a, $$it's /* not */ ORDER BY x DESC$$ AS b, $tag$a $$ b$tag$ AS c, E'tab\\there' AS d /* nested /* comment */ still */ FROM customers WHERE id = 1 -- ORDER BY id DESC",
  },
  { name: 'escaped quotes', sql: "SELECT name FROM customers WHERE name = 'Conan O''Brien' OR name = E'Conan O\\'Brien'" },
  { name: 'casts inside strings untouched', sql: "SELECT '1::jsonb' AS a, 'x / 2' AS b, '{a,b}' AS c" },
  { name: 'between symmetric', sql: 'SELECT id FROM products WHERE price BETWEEN SYMMETRIC 100 AND 10' },
  {
    name: 'overlaps',
    sql: "SELECT a.id, b.id FROM orders a, orders b WHERE a.id < b.id AND (a.ordered_at, a.ordered_at + interval '20 days') OVERLAPS (b.ordered_at, interval '1 day') AND a.customer_id = b.customer_id",
  },
  { name: 'fetch with ties', sql: 'SELECT id, shipping FROM orders ORDER BY shipping DESC FETCH FIRST 3 ROWS WITH TIES' },
  { name: 'tablesample everything', sql: 'SELECT count(*) FROM orders TABLESAMPLE BERNOULLI (100)' },
  {
    name: 'extract seconds from intervals',
    sql: "SELECT extract(second FROM interval '90.5 seconds'), extract(second FROM occurred_at - timestamp '2024-01-01') FROM events WHERE id < 4",
  },
  { name: 'pg array literal equality', sql: "SELECT id FROM customers WHERE tags = '{vip,early}'::text[]" },
  { name: 'json path with array positions', sql: "SELECT id, payload #>> '{items,1,qty}', payload #> '{items,-1}' FROM events WHERE payload ? 'items'" },
  {
    name: 'descending order inside window and aggregate',
    sql: "SELECT customer_id, string_agg(coalesce(status, '?'), ',' ORDER BY status DESC, id), first_value(status) OVER (ORDER BY status DESC, id) FROM orders GROUP BY customer_id, status, id",
  },
  { name: 'jsonb_set', sql: "SELECT jsonb_set(attributes, '{color}', '\"green\"') FROM products WHERE id = 1" },
  { name: 'jsonb minus key', sql: "SELECT attributes - 'color' FROM products WHERE id = 1" },
  { name: 'regexp_matches global', sql: "SELECT regexp_matches(sku, '[A-Z]', 'g') FROM products WHERE id = 1" },
  { name: 'regtype cast', sql: "SELECT 'int4'::regtype" },
  {
    name: 'make_interval',
    sql: 'SELECT make_interval(days => 3, hours => 2), make_interval(1, 2, 1, 3, 4, 5, 6.5), make_interval(secs => id / 4.0) FROM customers',
  },
  { name: 'justify_hours', sql: "SELECT justify_hours(interval '36 hours')" },
];
