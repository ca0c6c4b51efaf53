import { category, perRow, scalars } from './entry';

export const arrays = category('arrays', [
  ...scalars([
    'ARRAY[1, 2, 3]', "ARRAY['a', 'b']", 'ARRAY[1, 2] || 3', '0 || ARRAY[1, 2]', 'ARRAY[1, 2] || ARRAY[3, 4]', 'array_append(ARRAY[1, 2], 3)', 'array_prepend(0, ARRAY[1])',
    'array_cat(ARRAY[1], ARRAY[2, 3])', 'array_length(ARRAY[1, 2, 3], 1)', "array_length('{}'::int[], 1)", 'cardinality(ARRAY[1, 2, 3])', "cardinality('{}'::int[])", 'array_dims(ARRAY[1, 2, 3])',
    'array_dims(ARRAY[[1, 2], [3, 4]])', 'array_upper(ARRAY[1, 2, 3], 1)', 'array_lower(ARRAY[5, 6], 1)', 'array_position(ARRAY[5, 6, 7], 6)', "array_position(ARRAY['a', 'b'], 'z')",
    'array_positions(ARRAY[1, 2, 1], 1)', 'array_remove(ARRAY[1, 2, 1], 1)', 'array_replace(ARRAY[1, 2, 1], 1, 9)', "array_to_string(ARRAY[1, 2, 3], '-')", 'ARRAY[1, 2, 3] @> ARRAY[2]',
    'ARRAY[1, 2] <@ ARRAY[1, 2, 3]', 'ARRAY[1, 2] && ARRAY[2, 5]', 'ARRAY[1, 2] && ARRAY[7]', 'ARRAY[1, 2] = ARRAY[1, 2]', 'ARRAY[1, 2] < ARRAY[1, 3]', '(ARRAY[10, 20, 30])[2]',
    '(ARRAY[10, 20, 30])[5]', '(ARRAY[10, 20, 30])[2:3]', '(ARRAY[10, 20, 30])[:2]', '2 = ANY(ARRAY[1, 2, 3])', "2 = ANY('{1,2,3}')", "'b' = ANY('{a,b}'::text[])", '5 = ALL(ARRAY[5, 5])',
    "5 <> ALL('{1,2}')", '2 = ANY(ARRAY[1, NULL])', "'abc' LIKE ANY (ARRAY['a%', 'z%'])", "'abc' LIKE ALL (ARRAY['a%', '%c'])", "'{1,2,3}'::int[]", "('{1,2,3}'::int[])[1]",
    "(SELECT array_agg(x) FROM unnest(ARRAY[3, 1, 2]) AS x)", "(SELECT sum(x) FROM unnest(ARRAY[1, 2, 3]) x)", "string_to_array('a b c', ' ')", "array_to_string(string_to_array('x,y', ','), '|')",
    "ARRAY[1.5, 2]", "ARRAY[NULL, 1]", "array_length(ARRAY[[1, 2], [3, 4]], 2)", "ARRAY['x'] || 'y'::text",
  ]),
  'SELECT * FROM unnest(ARRAY[10, 20, 30]) WITH ORDINALITY',
  'SELECT * FROM unnest(ARRAY[10, 20, 30]) WITH ORDINALITY AS t(v, n) ORDER BY n',
  "SELECT * FROM unnest(ARRAY['a', 'b'], ARRAY[1, 2, 3]) AS t(s, n)",
  'SELECT unnest(ARRAY[1, 2, 3])', 'SELECT unnest(ARRAY[1, 2]) AS x, 7', 'SELECT x FROM unnest(ARRAY[3, 1, 2]) AS x ORDER BY x',
  'SELECT id FROM shop.orders WHERE id = ANY(ARRAY[101, 105, 200]) ORDER BY id', "SELECT id FROM shop.orders WHERE id = ANY('{102,104,106}') ORDER BY id",
  "SELECT id FROM shop.orders WHERE status = ANY('{pending,refunded}') ORDER BY id", "SELECT id FROM shop.orders WHERE status LIKE ANY (ARRAY['ship%', 'ref%']) ORDER BY id",
  "SELECT id FROM shop.orders WHERE id <> ALL(ARRAY[101, 102]) ORDER BY id", "SELECT name FROM shop.customers WHERE country = ANY(ARRAY['GB', 'US']) ORDER BY name",
  ...perRow('numbers', ['ARRAY[a, b]', 'array_length(ARRAY[a, b, id], 1)', 'ARRAY[a] || b', 'a = ANY(ARRAY[7, 9])', "b = ANY('{2,4}')", 'ARRAY[x, y]', 'array_position(ARRAY[2, 3, 4], b)']),
  'SELECT customer_id, array_agg(status ORDER BY id) FROM shop.orders GROUP BY 1 ORDER BY 1', 'SELECT array_agg(DISTINCT kind ORDER BY kind) FROM shop.events',
  'SELECT generate_series(1, 3)', 'SELECT generate_series(1, 10, 3)', 'SELECT * FROM generate_series(5, 1, -2)', 'SELECT * FROM generate_series(0, 1, 0.25)',
  'SELECT generate_series(1.5, 3)', 'SELECT * FROM generate_series(1, 3) AS g', 'SELECT g.n * 2 FROM generate_series(1, 3) AS g(n)', 'SELECT count(*) FROM generate_series(1, 100)',
]);
