import { category, perRow, scalars } from './entry';

/** CASE, COALESCE, NULLIF, GREATEST and LEAST: how they unify their branches' types, and NULL in each. */
export const conditionals = category('conditionals', [
  ...scalars(['CASE WHEN true THEN 1 ELSE 2.5 END', 'CASE WHEN false THEN 1 ELSE 2.5 END', "CASE WHEN true THEN 'a' ELSE NULL END", 'CASE WHEN NULL THEN 1 ELSE 2 END', 'CASE NULL WHEN NULL THEN 1 ELSE 2 END',
    "CASE 1 WHEN 1.0 THEN 'one' END", 'CASE WHEN 1 > 2 THEN 1 END', "CASE WHEN true THEN 1 ELSE '2' END", 'CASE WHEN true THEN 1::bigint ELSE 2.5::float8 END',
    'coalesce(NULL, NULL)', 'coalesce(NULL, 1, 2)', 'coalesce(NULL, 2.5, 1)', "coalesce(NULL, '2024-01-01'::date, now())", "coalesce('', 'x')", 'nullif(1, 1.0)', 'nullif(0, 0) IS NULL',
    "nullif('', '')", 'nullif(NULL, 1)', 'greatest(1, 2.5)', "greatest('apple', 'banana', 'cherry')", 'least(NULL, NULL)', "least(date '2024-01-01', '2023-12-31')", 'greatest(1, 2::bigint, 3::smallint)',
    'greatest(0.1::float8, 0.2)', 'least(-0.0, 0.0)', "greatest('10', '9')", '1 IS DISTINCT FROM NULL', 'NULL IS NOT DISTINCT FROM NULL', 'CASE WHEN 1 / 1 = 1 THEN 7 / 2 ELSE 0 END']),
  ...perRow('numbers', ["CASE WHEN a > 5 THEN 'big' WHEN a > 0 THEN 'small' WHEN a IS NULL THEN 'none' ELSE 'negative' END", 'CASE WHEN flag THEN x ELSE a END', 'CASE WHEN flag THEN a END',
    'CASE flag WHEN true THEN 1 WHEN false THEN 0 END', 'coalesce(a, x)', 'coalesce(a, 0.5)', "coalesce(label, 'n/a')", 'coalesce(flag, false)', 'coalesce(day, date \'1970-01-01\')',
    'nullif(a, b * 3 + 1)', 'nullif(label, \'ten\')', 'greatest(a, x, y)', 'least(a, NULL)', 'greatest(day, date \'2024-01-01\')', 'CASE WHEN a % 2 = 0 THEN a / 2 ELSE 3 * a + 1 END',
    "CASE WHEN x > y THEN 'x' WHEN x < y THEN 'y' ELSE 'tie' END", 'CASE WHEN b = 0 THEN NULL ELSE a::numeric / b END', 'coalesce(nullif(label, \'\'), \'blank\')']),
  'SELECT sum(CASE WHEN status = \'shipped\' THEN total ELSE 0 END), sum(CASE WHEN status = \'shipped\' THEN 1 END) FROM shop.orders',
  'SELECT CASE WHEN qty >= 5 THEN \'bulk\' ELSE \'single\' END AS size, count(*), avg(total) FROM shop.orders GROUP BY 1 ORDER BY 1',
  'SELECT id, coalesce(shipped_on, ordered_at::date) FROM shop.orders ORDER BY id',
  'SELECT id, coalesce(shipped_on::timestamptz, ordered_at) FROM shop.orders ORDER BY id',
  'SELECT id, greatest(shipped_on, ordered_at) FROM shop.orders ORDER BY id',
  'SELECT id, coalesce(express, qty > 3) FROM shop.orders ORDER BY id',
]);
