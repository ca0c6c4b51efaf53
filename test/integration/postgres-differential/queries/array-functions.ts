import { category, perRow, scalars } from './entry';

/** Arrays: literals, slices, sizes of one and two dimensions, search and edit functions, comparison and unnesting. */
export const arrayFunctions = category('array functions', [
  ...scalars(["'{1,2,3}'::int[] || 4", 'ARRAY[]::int[]', "'{}'::text[]", "'{{1,2},{3,4}}'::int[]", '(ARRAY[1, 2, 3, 4])[2:]', '(ARRAY[1, 2, 3, 4])[:2]', '(ARRAY[1, 2, 3])[0:1]', '(ARRAY[1, 2, 3])[-1]',
    '(ARRAY[1, 2, 3])[3:2]', "('{a,b,c}'::text[])[2]", '(ARRAY[[1, 2], [3, 4]])[2][1]', 'array_length(ARRAY[]::int[], 1)', 'cardinality(ARRAY[[1, 2], [3, 4]])', "array_dims('{}'::int[])",
    'array_ndims(ARRAY[1])', 'array_upper(ARRAY[]::int[], 1)', 'array_length(ARRAY[1, 2], 2)', 'array_position(ARRAY[1, 2, 1, 2], 2, 3)', 'array_position(ARRAY[1, NULL, 3], NULL)',
    'array_positions(ARRAY[1, NULL, NULL], NULL)', 'array_remove(ARRAY[1, NULL, 2], NULL)', 'array_replace(ARRAY[1, NULL], NULL, 0)', "array_remove(ARRAY['a', 'b'], 'c')",
    '3 = ANY(ARRAY[1, NULL, 3])', '4 = ANY(ARRAY[1, NULL, 3])', '1 = ALL(ARRAY[]::int[])', '1 <> ALL(ARRAY[2, NULL])', '2 > ANY(ARRAY[1, 5])', 'NULL = ANY(ARRAY[1])', 'ARRAY[1, 2] < ARRAY[1, 2, 3]',
    'ARRAY[2] > ARRAY[1, 9]', 'ARRAY[1, NULL] = ARRAY[1, NULL]', 'ARRAY[1, NULL] @> ARRAY[NULL]::int[]', 'ARRAY[1, 2, 2] @> ARRAY[2, 2, 2]', 'ARRAY[1, 2] = ARRAY[2, 1]', "ARRAY['b'] > ARRAY['a', 'z']",
    "array_to_string(ARRAY[NULL, 'x'], ',')", "array_to_string(ARRAY['a', 'b'], '')", 'array_cat(ARRAY[1], NULL)', 'array_append(NULL::int[], 1)', 'array_append(ARRAY[1], NULL)', "ARRAY[1, 2]::text[]",
    "ARRAY['1', '2']::int[]", "ARRAY[date '2024-01-01', date '2024-02-01']", "array_fill(0, ARRAY[3])", 'trim_array(ARRAY[1, 2, 3], 1)', 'array_to_json(ARRAY[1, 2])', "array_length(string_to_array('a,b,c', ','), 1)",
    "(regexp_split_to_array('Ada Lovelace', ' '))[1]", 'ARRAY[1, 2] || ARRAY[[3, 4]]', 'ARRAY[ARRAY[1, 2], ARRAY[3, 4]]', "array_position(ARRAY['x', 'y'], 'y') - 1", "ARRAY[1.5, 2.25] || 3",
    "ARRAY['a'] || NULL::text", 'ARRAY[1, 2] && ARRAY[NULL::int]', "cardinality(ARRAY[]::text[])", "array_upper(ARRAY[[1, 2, 3]], 2)"]),
  'SELECT * FROM unnest(ARRAY[[1, 2], [3, 4]]) AS t(v)', "SELECT * FROM unnest('{x,y,z}'::text[]) WITH ORDINALITY AS t(v, i) WHERE i > 1",
  "SELECT v, i FROM unnest(ARRAY['b', 'a', 'c']) WITH ORDINALITY AS u(v, i) ORDER BY v", 'SELECT unnest(ARRAY[1, NULL, 3]) AS v',
  'SELECT count(*), sum(v) FROM unnest(ARRAY[1, NULL, 3]) AS v', "SELECT array_agg(v ORDER BY v DESC) FROM unnest(ARRAY[3, 1, 2]) AS v",
  'SELECT ARRAY(SELECT generate_series(1, 5) * 2)', "SELECT (array_agg(id ORDER BY total DESC))[1] FROM shop.orders",
  'SELECT customer_id, (array_agg(status ORDER BY ordered_at DESC))[1] AS last_status FROM shop.orders GROUP BY 1 ORDER BY 1 NULLS LAST',
  'SELECT customer_id, array_length(array_agg(id), 1) FROM shop.orders GROUP BY 1 ORDER BY 1 NULLS LAST',
  'SELECT DISTINCT ARRAY[status] FROM shop.orders ORDER BY 1', 'SELECT ARRAY[customer_id] AS k, count(*) FROM shop.orders GROUP BY 1 ORDER BY 1',
  "SELECT id FROM shop.customers WHERE 'en' = ANY(string_to_array('en,fr', ',')) AND id < 3 ORDER BY id",
  'SELECT id FROM shop.orders WHERE qty = ANY(ARRAY[1, 3]) AND total > ALL(ARRAY[50, 60]) ORDER BY id',
  ...perRow('numbers', ['ARRAY[a, b, NULL]', 'array_remove(ARRAY[a, b], NULL)', 'array_position(ARRAY[7, 10, 15], a)', 'ARRAY[a, b] @> ARRAY[2]', '(ARRAY[label, \'x\'])[1]', 'cardinality(ARRAY[a, b] || ARRAY[x::bigint])',
    'a = ANY(ARRAY[b, b * 5])', 'array_to_string(ARRAY[a, b], \'/\')', "string_to_array(label, ' ')", 'ARRAY[x, y] < ARRAY[0.5, 0]']),
]);
