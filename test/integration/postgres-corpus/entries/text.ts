import type { CorpusEntry } from '../corpus-entry';

/** String functions, pattern matching and casts. */
export const text: CorpusEntry[] = [
  {
    name: 'concatenation with nulls',
    sql: "SELECT id, name || ' <' || email || '>' AS contact, concat(name, ' ', city) AS c, concat_ws(', ', city, country) AS place FROM customers",
  },
  {
    name: 'length of unicode',
    sql: 'SELECT id, length(c.name), char_length(c.name), octet_length(c.name), upper(sku), lower(sku) FROM customers c JOIN products USING (id)',
  },
  { name: 'substring forms', sql: 'SELECT id, substring(name from 1 for 3), substring(name, 2, 4), substr(name, 3), substring(name from 4) FROM customers' },
  { name: 'substring with regex', sql: "SELECT sku, substring(sku from '[0-9]+') AS digits, substring(sku from '^([A-Z]+)-') AS prefix FROM products" },
  { name: 'position and strpos', sql: "SELECT id, position('o' in name), strpos(lower(name), 'a') FROM customers" },
  {
    name: 'left right and padding',
    sql: "SELECT sku, left(sku, 2), right(sku, 2), left(sku, -1), lpad(sku, 8, '*'), rpad(sku, 8, '.'), lpad(sku, 3), rpad(sku, 7) FROM products",
  },
  {
    name: 'trim functions',
    sql: "SELECT trim('  x  '), ltrim('xxabc', 'x'), rtrim('abcyy', 'y'), btrim('--abc--', '-'), trim(both '*' from '**a**'), trim(leading '0' from '000120')",
  },
  {
    name: 'replace translate repeat reverse',
    sql: "SELECT replace(sku, '-', '_'), translate(sku, 'ABC', 'abc'), repeat(left(sku, 1), 3), reverse(sku) FROM products",
  },
  {
    name: 'split_part',
    sql: "SELECT email, split_part(email, '@', 1) AS local, split_part(email, '@', 2) AS domain, split_part(email, '.', -1) AS tld FROM customers",
  },
  { name: 'initcap', sql: "SELECT initcap('hello wORLD'), initcap('foo-bar baz_qux 3rd'), initcap(lower(sku)) FROM products" },
  {
    name: 'string_to_array and array_to_string',
    sql: "SELECT string_to_array(email, '@'), array_to_string(tags, ';'), array_to_string(ARRAY['a', NULL, 'c'], ',', '?') FROM customers",
  },
  { name: 'like and ilike', sql: "SELECT name FROM customers WHERE name LIKE '%a%' AND name NOT ILIKE 'a%'" },
  {
    name: 'like with escapes',
    sql: "SELECT v, v LIKE 'a\\_c' AS escaped, v LIKE 'a_c' AS wildcard, v LIKE 'a#%c' ESCAPE '#' AS custom FROM (VALUES ('a_c'), ('abc'), ('a%c')) t(v)",
  },
  {
    name: 'similar to',
    sql: "SELECT sku, sku SIMILAR TO '(KB|MS)-%' AS kbms, sku SIMILAR TO '%-[0-9]+' AS numbered, sku NOT SIMILAR TO 'SW%' AS not_sw FROM products",
  },
  {
    name: 'regex operators',
    sql: "SELECT name, name ~ 'an' AS has_an, name ~* '^a' AS starts_a, name !~ '[0-9]' AS no_digit, name !~* 'Z' AS no_z FROM customers",
  },
  {
    name: 'regex functions',
    sql: "SELECT sku, regexp_replace(sku, '[0-9]', '#', 'g') AS masked, regexp_replace(sku, '-.*', '') AS head, regexp_match(sku, '([A-Z]+)-([A-Z0-9]+)') AS parts, regexp_count(sku, '[A-Z]') AS letters FROM products",
  },
  { name: 'regexp_split_to_array', sql: "SELECT regexp_split_to_array(email, '[@.]') FROM customers WHERE email IS NOT NULL" },
  { name: 'regexp_split_to_table', sql: "SELECT id, part FROM customers, regexp_split_to_table(coalesce(email, ''), '[@.]') AS part WHERE id < 4" },
  {
    name: 'format with %s',
    sql: "SELECT format('%s ordered %s item(s)', c.name, count(*)) FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.name",
  },
  { name: 'md5 and to_hex', sql: 'SELECT md5(sku), to_hex(id * 1000) FROM products' },
  {
    name: 'casts between types',
    sql: "SELECT '42'::int + 1, 42::text || '!', '3.5'::float8 * 2, '2024-03-05'::date, CAST('12.5' AS numeric(5,2)), 7::int8, 1.9::int4, (-1.5)::int",
  },
  { name: 'cast to numeric without scale', sql: 'SELECT id, price::numeric, round(price::numeric / 3, 4), round(weight_kg::numeric, 5) FROM products' },
  { name: 'cast to float', sql: 'SELECT id, price::float / 3 AS third, 1::float / 3 AS exact FROM products' },
  { name: 'text comparisons and ordering', sql: "SELECT name FROM customers WHERE name > 'C' ORDER BY name" },
  { name: 'chr ascii and case', sql: "SELECT chr(65), ascii('a'), upper('abc'), lower('ABC')" },
  { name: 'array literal text cast', sql: "SELECT id FROM orders WHERE status = ANY ('{pending,refunded}'::text[])" },
  {
    name: 'array functions',
    sql: "SELECT id, array_length(tags, 1), cardinality(tags), tags[1], array_position(tags, 'vip'), array_append(tags, 'x'), array_remove(tags, 'early'), array_cat(tags, ARRAY['z']) FROM customers",
  },
  { name: 'unnest arrays', sql: 'SELECT id, unnest(tags) AS tag FROM customers' },
  { name: 'unnest in from with alias', sql: 'SELECT c.id, t FROM customers c, unnest(c.tags) AS t' },
  { name: 'unnest with ordinality', sql: 'SELECT c.id, t.tag, t.n FROM customers c CROSS JOIN LATERAL unnest(c.tags) WITH ORDINALITY AS t(tag, n)' },
  { name: 'array containment and overlap', sql: "SELECT id FROM customers WHERE tags @> ARRAY['vip'] OR tags && ARRAY['b2b']" },
  { name: 'num_nulls and num_nonnulls', sql: 'SELECT id, num_nulls(email, city, tier), num_nonnulls(email, city, tier) FROM customers' },
  { name: 'width_bucket histogram', sql: 'SELECT width_bucket(price, 0, 300, 6) AS bucket, count(*) FROM products GROUP BY 1' },
  { name: 'div', sql: 'SELECT div(quantity, 4), div(-7, 2), div(unit_price, 3) FROM order_items' },
];
