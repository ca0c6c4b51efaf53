import type { CorpusEntry } from '../corpus-entry';

/** JSON operators and functions over the jsonb columns. */
export const json: CorpusEntry[] = [
  { name: 'json field as text', sql: "SELECT id, payload ->> 'device' AS device, payload ->> 'page' AS page FROM events" },
  { name: 'json field as json', sql: "SELECT id, payload -> 'items' AS items, payload -> 'utm' AS utm FROM events" },
  {
    name: 'json nested arrows',
    sql: "SELECT id, payload -> 'items' -> 0 ->> 'sku' AS first_sku, payload -> 'items' -> -1 -> 'qty' AS last_qty FROM events WHERE kind = 'purchase'",
  },
  { name: 'json arrow compared', sql: "SELECT id FROM events WHERE payload -> 'ok' = 'true'::jsonb" },
  { name: 'json arrow is null', sql: "SELECT id FROM events WHERE payload -> 'ms' IS NULL AND kind = 'view'" },
  { name: 'json text compared', sql: "SELECT id FROM events WHERE payload ->> 'device' = 'mobile' AND (payload ->> 'ok')::boolean" },
  {
    name: 'json numbers cast',
    sql: "SELECT id, (payload ->> 'total')::numeric AS total, (payload ->> 'order')::int AS order_id FROM events WHERE kind = 'purchase'",
  },
  { name: 'json aggregate on field', sql: "SELECT payload ->> 'device' AS device, count(*) FROM events WHERE kind = 'login' GROUP BY 1" },
  {
    name: 'json path operators',
    sql: "SELECT e.id, payload #> '{utm,source}' AS source, payload #>> '{items,0,sku}' AS first_sku, attributes #>> '{dims,w}' AS width FROM events e JOIN products p ON e.id = p.id",
  },
  { name: 'json containment', sql: 'SELECT id FROM events WHERE payload @> \'{"device": "mobile"}\'' },
  { name: 'json containment nested', sql: 'SELECT id FROM products WHERE attributes @> \'{"dims": {"w": 61}}\' OR \'{"color": "white"}\' <@ attributes' },
  { name: 'json key exists', sql: "SELECT id FROM products WHERE attributes ? 'sizes'" },
  {
    name: 'json any and all keys',
    sql: "SELECT id, attributes ?| array['wireless', 'ports'] AS any_key, attributes ?& array['color', 'dims'] AS all_keys FROM products WHERE attributes IS NOT NULL",
  },
  {
    name: 'json typeof',
    sql: "SELECT id, jsonb_typeof(attributes), jsonb_typeof(attributes -> 'color'), jsonb_typeof(attributes -> 'sizes'), jsonb_typeof(attributes -> 'wireless'), jsonb_typeof(attributes -> 'length_m') FROM products",
  },
  { name: 'jsonb_array_length', sql: "SELECT id, jsonb_array_length(payload -> 'items') FROM events WHERE kind = 'purchase'" },
  {
    name: 'jsonb_extract_path_text',
    sql: "SELECT id, jsonb_extract_path_text(payload, 'utm', 'campaign'), jsonb_extract_path(payload, 'items', '0', 'qty') FROM events",
  },
  {
    name: 'jsonb_array_elements in from',
    sql: "SELECT e.id, item ->> 'sku' AS sku, (item ->> 'qty')::int AS qty FROM events e, jsonb_array_elements(e.payload -> 'items') AS item",
  },
  {
    name: 'jsonb_array_elements with column alias',
    sql: "SELECT e.id, x.value ->> 'sku' FROM events e CROSS JOIN LATERAL jsonb_array_elements(e.payload -> 'items') AS x(value)",
  },
  { name: 'jsonb_array_elements in select', sql: "SELECT id, jsonb_array_elements(payload -> 'tags') AS tag FROM events WHERE kind = 'support'" },
  { name: 'jsonb_array_elements_text', sql: "SELECT e.id, t FROM events e, jsonb_array_elements_text(e.payload -> 'tags') AS t" },
  {
    name: 'units sold from json',
    sql: "SELECT item ->> 'sku' AS sku, sum((item ->> 'qty')::int) AS units FROM events, jsonb_array_elements(payload -> 'items') AS item GROUP BY 1",
  },
  { name: 'jsonb_object_keys', sql: 'SELECT DISTINCT jsonb_object_keys(attributes) AS key FROM products' },
  { name: 'jsonb_each', sql: 'SELECT p.id, kv.key, kv.value FROM products p, jsonb_each(p.attributes) AS kv WHERE p.id IN (2, 4)' },
  { name: 'jsonb_each_text', sql: 'SELECT key, value FROM jsonb_each_text((SELECT payload FROM events WHERE id = 4))' },
  { name: 'jsonb_build_object', sql: "SELECT jsonb_build_object('id', id, 'name', name, 'tier', tier) FROM customers" },
  { name: 'json_build_array', sql: 'SELECT json_build_array(id, sku, price) FROM products' },
  { name: 'jsonb_agg', sql: 'SELECT customer_id, jsonb_agg(id ORDER BY id) FROM orders GROUP BY customer_id' },
  {
    name: 'json_agg of objects',
    sql: "SELECT json_agg(jsonb_build_object('sku', sku, 'price', price) ORDER BY sku) FROM products WHERE category = 'hardware'",
  },
  { name: 'jsonb_agg with filter', sql: "SELECT jsonb_agg(name) FILTER (WHERE tier = 'gold') FROM customers" },
  { name: 'jsonb_object_agg', sql: 'SELECT jsonb_object_agg(sku, price) FROM products' },
  { name: 'to_jsonb', sql: 'SELECT to_jsonb(c.name), to_jsonb(p.price), to_jsonb(c.tags) FROM customers c JOIN products p USING (id)' },
  { name: 'row_to_json', sql: 'SELECT row_to_json(t) FROM (SELECT id, name FROM employees WHERE id < 4) t' },
  {
    name: 'json null handling',
    sql: "SELECT id, attributes -> 'tags' AS tags, attributes ->> 'tags' AS tags_text, attributes -> 'missing' AS missing FROM products WHERE id = 4",
  },
  { name: 'jsonb cast and compare', sql: "SELECT id FROM products WHERE attributes = '{}'::jsonb" },
  {
    name: 'json payload filter and group',
    sql: "SELECT payload ->> 'topic' AS topic, max((payload ->> 'priority')::int) FROM events WHERE payload ? 'topic' GROUP BY 1",
  },
];
