import { category, perRow, scalars } from './entry';

const doc = `'{"name": "kit", "tags": ["a", "b"], "dims": {"w": 2, "h": 3.5}, "gone": null, "n": 10}'::jsonb`;

/** jsonb operators, constructors, set-returning functions, edits and path queries over literals and columns. */
export const jsonbFunctions = category('jsonb', [
  ...scalars([`${doc} -> 'dims' ->> 'h'`, `${doc} #> '{dims,w}'`, `${doc} #>> '{tags,1}'`, `${doc} -> 'tags' -> -1`, `${doc} -> 'tags' ->> 5`, `${doc} ->> 'gone'`, `${doc} -> 'gone'`,
    `${doc} -> 'gone' IS NULL`, `jsonb_typeof(${doc} -> 'gone')`, `${doc} @> '{"dims": {"w": 2}}'`, `${doc} @> '{"tags": ["b"]}'`, `${doc} ? 'gone'`, `${doc} ?| '{x,n}'`, `${doc} ?& '{name,tags}'`,
    `${doc} -> 'tags' ? 'a'`, `(${doc} ->> 'n')::int * 2`, `(${doc} -> 'n')::int + 1`, `(${doc} -> 'dims' -> 'h')::numeric`, `(${doc} ->> 'dims')::jsonb -> 'w'`, `${doc} - 'tags' - 'dims'`,
    `${doc} #- '{dims,w}'`, `${doc} #- '{tags,0}'`, `jsonb_set(${doc}, '{dims,d}', '4')`, `jsonb_set(${doc}, '{tags,5}', '"z"')`, `jsonb_set(${doc}, '{x,y}', '1')`, `jsonb_insert(${doc}, '{tags,0}', '"first"')`,
    `jsonb_insert(${doc}, '{tags,1}', '"after"', true)`, `jsonb_strip_nulls(${doc})`, `jsonb_build_object('a', NULL, 'b', jsonb_build_array(1, 2), 'c', jsonb_build_object('d', true))`,
    `jsonb_build_array()`, `jsonb_build_object()`, `jsonb_typeof('[]')`, `jsonb_typeof('true')`, `jsonb_typeof('"s"')`, `jsonb_typeof('null')`, `jsonb_array_length('[]')`,
    `jsonb_path_query_array(${doc}, '$.tags[*]')`, `jsonb_path_exists(${doc}, '$.dims ? (@.w > 1)')`, `jsonb_path_query_first(${doc}, '$.dims.h')`, `${doc} @? '$.tags[*] ? (@ == "b")'`,
    `${doc} @@ '$.n > 5'`, `'{"a": 1, "a": 2}'::json ->> 'a'`, `'{"a": 1, "a": 2}'::jsonb`, `'[1, 2, 3]'::jsonb @> '2'`, `'[1, [2, 3]]'::jsonb @> '[[3]]'`, `'{"a": 1}'::jsonb <@ '{"a": 1, "b": 2}'`,
    `'1'::jsonb < '2'::jsonb`, `'"a"'::jsonb ->> 0`, `'[{"k": 1}, {"k": 2}]'::jsonb -> 1 -> 'k'`, `to_jsonb(ARRAY[1, 2])`, `to_jsonb(true)`, `to_jsonb(NULL::text)`, `to_jsonb('x'::text) ->> 0`,
    `jsonb_object_keys('{"b": 1, "a": 2}')`, `jsonb_array_elements_text('["x", 1, null]')`, `jsonb_extract_path_text('{"a": {"b": "c"}}', 'a', 'b')`, `jsonb_build_object('n', 1.50)`, `jsonb_agg(x) FROM (VALUES (1), (NULL), (3)) t(x)`,
    `jsonb_object_agg(k, v) FROM (VALUES ('a', 1), ('b', NULL)) t(k, v)`, `json_build_array(1, 'a') -> 1`, `'{"a": [1, 2]}'::jsonb -> 'a' -> 0 = '1'`]),
  ...perRow('orders', ["meta -> 'coupon'", "meta ->> 'coupon'", "meta -> 'coupon' IS NULL", "jsonb_typeof(meta -> 'coupon')", "meta ? 'coupon'", "meta -> 'items' -> 1", "jsonb_array_length(meta -> 'items')",
    "meta #>> '{refund,amount}'", "(meta #>> '{refund,amount}')::numeric", "meta @> '{\"channel\": \"web\"}'", "coalesce(meta ->> 'channel', 'unknown')", "jsonb_build_object('id', id, 'status', status)",
    "jsonb_build_object('total', total, 'express', express)", "meta || jsonb_build_object('qty', qty)", "jsonb_set(coalesce(meta, '{}'), '{qty}', to_jsonb(qty))"]),
  ...perRow('events', ["payload -> 'items' -> -1 ->> 'sku'", "payload #>> '{utm,campaign}'", "payload ?| ARRAY['tags', 'items']", "(payload -> 'ok')::boolean", "jsonb_path_query_array(payload, '$.items[*].sku')",
    "payload - 'items'", "jsonb_typeof(payload)", "(SELECT count(*) FROM jsonb_object_keys(payload))"]),
  ...perRow('customers', ["profile -> 'langs' -> 0", "profile #>> '{address,city}'", "jsonb_array_length(profile -> 'langs') > 1", "profile -> 'tags' -> 'b' -> 1", "profile @> '{\"address\": {\"zip\": null}}'"]),
  "SELECT e.id, i.ord, i.item ->> 'sku', (i.item ->> 'qty')::int FROM shop.events e CROSS JOIN LATERAL jsonb_array_elements(e.payload -> 'items') WITH ORDINALITY AS i(item, ord) ORDER BY 1, 2",
  "SELECT id, lang FROM shop.customers, jsonb_array_elements_text(profile -> 'langs') AS lang WHERE id < 5 ORDER BY id, lang",
  "SELECT lang, count(*) FROM shop.customers, jsonb_array_elements_text(profile -> 'langs') AS lang GROUP BY lang ORDER BY 2 DESC, 1",
  "SELECT key, jsonb_typeof(value) FROM jsonb_each('{\"a\": 1, \"b\": [2], \"c\": null}'::jsonb) ORDER BY key",
  "SELECT k, v FROM jsonb_each_text('{\"a\": 1, \"b\": \"two\"}'::jsonb) AS t(k, v) ORDER BY k",
  "SELECT id, e.key, e.value FROM shop.orders, jsonb_each_text(meta) AS e WHERE id IN (101, 105) ORDER BY id, e.key",
  "SELECT jsonb_agg(jsonb_build_object('id', id, 'total', total) ORDER BY id) FROM shop.orders WHERE customer_id = 1",
  "SELECT meta ->> 'channel' AS channel, jsonb_agg(id ORDER BY id) FROM shop.orders GROUP BY 1 ORDER BY 1 NULLS LAST",
  "SELECT jsonb_object_agg(id, total ORDER BY id) FROM shop.orders WHERE id < 104",
  "SELECT count(*) FROM shop.events WHERE payload @> '{\"device\": \"mobile\"}'",
  "SELECT id FROM shop.events WHERE payload -> 'items' @> '[{\"sku\": \"MS\"}]' ORDER BY id",
  "SELECT payload ->> 'device' AS device, count(*) FILTER (WHERE (payload ->> 'ok')::boolean) FROM shop.events WHERE payload ? 'device' GROUP BY 1 ORDER BY 1",
  "SELECT id, jsonb_path_query(payload, '$.items[*].qty') FROM shop.events ORDER BY id, 2",
]);
