import { category, perRow, scalars } from './entry';

const doc = `'{"a": 1, "b": {"c": [1, 2, {"d": "x"}]}, "e": null, "f": "text"}'::jsonb`;

export const json = category('json', [
  ...scalars([
    `${doc} -> 'a'`, `${doc} ->> 'a'`, `${doc} -> 'b' -> 'c' -> 2 ->> 'd'`, `${doc} #> '{b,c,0}'`, `${doc} #>> '{b,c,2,d}'`, `${doc} -> 'e'`, `${doc} ->> 'e'`, `${doc} -> 'missing'`,
    `${doc} ? 'a'`, `${doc} ? 'zz'`, `${doc} ?| array['x', 'a']`, `${doc} ?& array['a', 'zz']`, `${doc} @> '{"a": 1}'`, `'{"a": 1}'::jsonb <@ ${doc}`, `${doc} - 'a'`,
    `${doc} #- '{b,c}'`, `'{"a": 1}'::jsonb || '{"b": 2}'::jsonb`, `'{"a": 1}'::jsonb || '{"a": 2}'::jsonb`, `'[1, 2]'::jsonb || '[3]'::jsonb`, `'{"a": 1}'::jsonb = '{"a": 1.0}'::jsonb`,
    `'{"a": 1, "b": 2}'::jsonb = '{"b": 2, "a": 1}'::jsonb`, `jsonb_typeof(${doc} -> 'b')`, `jsonb_typeof(${doc} -> 'e')`, `jsonb_array_length(${doc} #> '{b,c}')`,
    `jsonb_build_object('k', 1, 'l', 'two')`, `jsonb_build_array(1, 'two', NULL)`, `to_jsonb('text'::text)`, `jsonb_set(${doc}, '{a}', '5')`, `jsonb_set('{"a": {"b": 1}}'::jsonb, '{a,b}', '"x"')`,
    `jsonb_strip_nulls('{"a": 1, "b": null}'::jsonb)`, `jsonb_pretty('{"a": 1}'::jsonb)`, `jsonb_extract_path_text(${doc}, 'b', 'c', '1')`, `jsonb_extract_path(${doc}, 'b')`,
    `(SELECT count(*) FROM jsonb_array_elements('[1, 2, 3]'::jsonb))`, `(SELECT string_agg(key, ',' ORDER BY key) FROM jsonb_object_keys(${doc}) AS key)`,
    `(SELECT jsonb_agg(x ORDER BY x) FROM (VALUES (3), (1)) t(x))`, `'[1, "a", null]'::jsonb -> 1`, `'[1, 2, 3]'::jsonb -> -1`, `'"str"'::jsonb ->> 0`, `'{"a": [1, 2]}'::jsonb @> '{"a": [2]}'`,
    `'1'::jsonb = '1.0'::jsonb`, `'{"a": 1}'::json ->> 'a'`, `json_build_object('a', 1) ->> 'a'`, `jsonb_typeof('1.5')`, `'{"a": "b"}'::jsonb ->> 'a' = 'b'`, `('{"n": 5}'::jsonb ->> 'n')::int + 1`,
  ]),
  ...perRow('events', ["payload ->> 'device'", "payload -> 'ok'", "(payload ->> 'ms')::int", "payload #>> '{items,0,sku}'", "jsonb_array_length(payload -> 'items')", "payload ? 'total'",
    "payload @> '{\"ok\": true}'", "payload -> 'utm' ->> 'source'", "jsonb_typeof(payload -> 'items')", "coalesce(payload ->> 'page', '-')", "payload - 'ok'", "(payload ->> 'total')::numeric * 2",
    "payload -> 'items' -> 0 -> 'qty'", "jsonb_strip_nulls(payload)", "payload ->> 'order' IS NULL", "jsonb_set(payload, '{seen}', 'true')"]),
  ...perRow('customers', ["profile -> 'address' ->> 'city'", "profile ->> 'age'", "(profile ->> 'age')::int / 10", "jsonb_array_length(profile -> 'langs')", "profile -> 'langs' ->> 0",
    "profile ? 'address'", "profile -> 'langs' ? 'en'", "profile @> '{\"langs\": [\"en\"]}'", "profile #> '{address,zip}'", "profile || '{\"x\": 1}'::jsonb"]),
  "SELECT kind, count(*) FROM shop.events WHERE payload ->> 'device' = 'mobile' GROUP BY kind ORDER BY kind",
  "SELECT e.id, x.value ->> 'sku' AS sku, (x.value ->> 'qty')::int AS qty FROM shop.events e, jsonb_array_elements(e.payload -> 'items') AS x(value) ORDER BY 1, 2",
  "SELECT id, jsonb_array_elements_text(profile -> 'langs') FROM shop.customers ORDER BY 1, 2",
  "SELECT key, count(*) FROM shop.events, jsonb_object_keys(payload) AS key GROUP BY key ORDER BY key",
  "SELECT id, key, value FROM shop.events, jsonb_each(payload) WHERE id = 1 ORDER BY key",
  "SELECT id, key, value FROM shop.events, jsonb_each_text(payload) WHERE id = 2 ORDER BY key",
  "SELECT meta ->> 'channel' AS channel, sum(total) FROM shop.orders GROUP BY 1 ORDER BY 1 NULLS FIRST",
  "SELECT jsonb_agg(id ORDER BY id) FROM shop.orders WHERE status = 'pending'",
  "SELECT jsonb_object_agg(kind, n ORDER BY kind) FROM (SELECT kind, count(*) AS n FROM shop.events GROUP BY kind) t",
  "SELECT json_build_object('id', id, 'total', total) FROM shop.orders WHERE id = 101",
]);
