import { category, perRow, scalars } from './entry';

/** Booleans and three-valued logic: NULL in AND, OR, NOT, comparisons, IS [NOT] TRUE/UNKNOWN and aggregates over them. */
export const nullLogic = category('booleans and nulls', [
  ...scalars(['NULL AND false', 'NULL AND true', 'NULL OR true', 'NULL OR false', 'NOT NULL::boolean', 'NULL = NULL', 'NULL <> 1', 'NULL::boolean IS UNKNOWN', 'true IS NOT UNKNOWN',
    'NULL::int IS NULL', "'null'::text IS NULL", 'true > false', 'true AND NOT false', 'true = (1 = 1)', "'t'::boolean = true", 'NOT (1 > 2 OR NULL)', '(NULL::int > 1) IS NULL',
    'true::int + true::int', 'false < NULL', 'NULL::int BETWEEN 1 AND 2', '1 BETWEEN NULL AND 0', '1 IN (2, NULL)', '1 IN (1, NULL)', '1 NOT IN (2, NULL)', 'ARRAY[NULL]::int[] IS NULL']),
  ...perRow('numbers', ['flag IS UNKNOWN', 'flag IS NOT TRUE', 'flag IS FALSE', 'NOT flag', 'flag AND a > 0', 'flag OR a > 10', 'flag = (a > 5)', 'flag::int', "coalesce(flag::text, 'unknown')", 'a > 0 AND b > 0 AND flag',
    'coalesce(flag, a > 5)', 'a IS NOT DISTINCT FROM NULL', 'x > y OR x IS NULL']),
  'SELECT count(*) FILTER (WHERE flag IS NOT TRUE), count(*) FILTER (WHERE NOT flag), count(*) FILTER (WHERE flag IS NULL) FROM shop.numbers',
  'SELECT id FROM shop.numbers WHERE flag IS NOT FALSE ORDER BY id', 'SELECT id FROM shop.numbers WHERE NOT (flag AND a > 5) ORDER BY id',
  'SELECT flag, count(*) FROM shop.numbers GROUP BY flag ORDER BY flag', 'SELECT flag FROM shop.numbers ORDER BY flag DESC, id', 'SELECT sum(flag::int), avg(flag::int) FROM shop.numbers',
  'SELECT vip, vip IS TRUE, vip IS NOT FALSE, vip = true FROM shop.customers ORDER BY id', 'SELECT count(*) FROM shop.customers WHERE vip IS DISTINCT FROM true',
  'SELECT id FROM shop.orders WHERE note IS NULL AND express IS NOT TRUE ORDER BY id',
]);
