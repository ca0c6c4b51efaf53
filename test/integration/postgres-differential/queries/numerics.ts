import { category, perRow, scalars } from './entry';

/** Numeric and decimal arithmetic, rounding of every kind, overflow of integer types and number formatting. */
export const numerics = category('numerics', [
  ...scalars([
    '10 / 4, 10 % 4, 10.0 / 4, 10 / 4.0', '1 / 3::numeric', '2::numeric / 3', '1.0 / 7', '100.0 / 3', 'round(22 / 7.0, 4)', '5.5 % 2', '-5.5 % 2', '7.5 % 2.25',
    'mod(10.5, 3)', 'mod(-10, 3)', '2 ^ 3 ^ 2', 'power(-2, 3)', 'power(2, -2)', 'power(10, 20)', 'power(10::numeric, 20)', '2.5 ^ 2', '(-8) ^ 3', 'sqrt(0)', 'sqrt(1e-10)',
    'cbrt(-27)', 'exp(0)', 'exp(1.0)', 'ln(1)', 'ln(2.718281828459045)', 'log(1000)', 'log10(0.001)', 'log(2, 1024)', 'log(1)', 'round(123.456, -1)', 'round(123.456, 0)',
    'round(-0.5)', 'round(0.5)', 'round(1.45, 1)', 'round(-1.45, 1)', 'round(0.005, 2)', 'round(2.675, 2)', 'trunc(123.456, -2)', 'trunc(-0.999, 2)', 'trunc(5.9)',
    'ceil(-0.1)', 'floor(2.999999)', 'ceil(2.000001)', 'round(1e6 / 7, 3)', 'width_bucket(0, 0, 10, 5)', 'width_bucket(10, 0, 10, 5)', 'width_bucket(-1, 0, 10, 5)',
    'width_bucket(5, 10, 0, 5)', 'width_bucket(9.99, 0, 10, 5)', 'width_bucket(7, ARRAY[0, 5, 10])', "to_char(1234567.891, '9,999,999.99')", "to_char(-12.5, '999.9')",
    "to_char(0.125, 'FM0.000')", "to_char(42, '000000')", "to_char(1234.5, 'FM9999.99')", "to_char(3.14159, '9.99')", "to_char(-0.5, 'FM990.00')", "to_char(7, 'FM00')",
    "to_char(1234.5678, 'FM999,999.0')", "to_char(99.999, '999.99')", '0.1 + 0.2 = 0.3', '0.1::float8 + 0.2::float8 = 0.3::float8', '1e-3 * 1e3', '123.4500 * 2',
    '1::numeric(10, 2) / 3', '10::numeric(5, 2)', 'scale(10.00 * 2.5)', 'scale(1.5 + 2.25)', 'scale(round(2.5678, 2))', '12.5::int', '(-12.5)::int', '12.5::float8::int',
    '0.5::float8::bigint', '1.5::float8::smallint', "'Infinity'::float8 + 1", "'-Infinity'::float8 < 0", "'NaN'::float8 = 'NaN'::float8", "'NaN'::numeric > 1", 'factorial(20)',
    'factorial(0)', 'gcd(0, 0)', 'lcm(0, 5)', 'gcd(-12, 18)', '17 / 5 * 5 + 17 % 5', '2147483647::bigint * 2', '(2147483647 + 1::bigint) * 2', 'abs(-2147483647)',
    '9223372036854775807 - 1', '-9223372036854775807 - 1', '32767::smallint - 1::smallint', '1.0 * 9223372036854775807 * 10', '1 / 3 * 3', '1 / 3.0 * 3', '(1 / 3.0) * 3 = 1',
    '4 / 2 * 3.0', '7 * 0.1', '0.07 * 100', 'round(0.07 * 100)', '-7 / 2 * 2', 'abs(-7 % 3)', 'sign(-0.001)', 'trunc(1e20 / 3)', 'round(1.23456789012345678, 15)',
  ]),
  ...perRow('numbers', [
    'a / b::numeric', 'round(a::numeric / b, 3)', 'a::numeric % b', 'round(x::numeric, 2)', 'round(y::numeric, 1)', 'trunc(y::numeric, 1)', 'ceil(y)', 'floor(x)', 'round(x / 3)',
    'sqrt(abs(x))', 'cbrt(y)', 'exp(x)', 'ln(abs(y))', 'log(abs(y))', 'x ^ 2', 'power(x, 3)', 'width_bucket(y, -10, 200, 5)', 'width_bucket(a, 0, 20, 4)', "to_char(x, '990.999')",
    "to_char(a, 'FM9,999,999')", "to_char(y, 'FM999990.00')", 'a * b * 1.5', '(a + b)::numeric / 3', 'a * 1000000000', 'a::int * 1000', 'b * 1.1', 'round(b * 1.15, 2)',
    'x * 100 / 3', 'a / 3.0', 'a % 4', '-a % 4', 'mod(a, -4)', 'a::real / 3', 'round(y * 100) / 100', 'round((y * 100)::numeric) / 100', 'round(y::numeric * 100) / 100',
    'x::numeric(10, 3)', 'y::numeric(8, 2)', 'a::numeric(10, 2) / 4', 'abs(y) ^ 0.5', 'greatest(a, x)', 'least(a, b, 0)', 'a + x', 'b::float8 / a',
  ]),
  ...perRow('orders', ['total * qty', 'total / qty', 'round(total / qty)', 'qty / 2', 'qty / 2.0', 'qty::float / 2', 'round((total * 1.2)::numeric, 2)', 'round(total::numeric * 1.2, 2)',
    'total::numeric(10, 1)', 'trunc(total)', 'qty * 2147483647', 'qty::int * 100000000', "to_char(total, 'FM99990.00')", "to_char(total, '999G990D00')", 'width_bucket(total, 0, 400, 4)']),
  'SELECT sum(a * b), sum(a * x), sum(a) * 10000000000000 FROM shop.numbers',
  'SELECT sum(total * qty), round(sum(total * qty)::numeric, 2) FROM shop.orders',
  'SELECT width_bucket(total, 0, 600, 6) AS bucket, count(*) FROM shop.orders GROUP BY 1 ORDER BY 1',
  'SELECT count(*) * 2147483647 FROM shop.numbers',
  'SELECT max(a) * 4000000000000 FROM shop.numbers',
]);
