import { category, perRow, scalars } from './entry';

export const arithmetic = category('arithmetic', [
  ...scalars([
    '7 / 2', '-7 / 2', '7 / -2', '7 % 3', '-7 % 3', '7 % -3', '7.0 / 2', '7 / 2.0', '7::numeric / 2', '7::float8 / 2', '1 / 3', '1.0 / 3',
    '2 ^ 10', '2.0 ^ 0.5', '10 * 3 / 4', '10 / 4 * 3', '(10 + 5) / 4', '10 + 5 / 4', '- 5 / 2', '5 / 2 + 0.5', 'abs(-7) / 2', '100 / 7 / 2',
    '2147483647 + 1::bigint', '9223372036854775807::numeric + 1', '1e3::int', '3 * 1.5', '0.1 + 0.2', '0.1::float8 + 0.2::float8', '1.005 * 1000',
    'abs(-2.5)', 'ceil(2.1)', 'floor(-2.1)', 'ceiling(-0.5)', 'round(2.5)', 'round(3.5)', 'round(-2.5)', 'round(2.5::float8)', 'round(3.5::float8)',
    'round(-2.5::float8)', 'round(0.5::float8)', 'round(2.567, 2)', 'round(-2.565, 2)', 'round(1234.5, -2)', 'trunc(2.789, 1)', 'trunc(-2.7)',
    'sign(-3)', 'sign(0.0)', 'mod(7, 3)', 'mod(-7, 3)', 'div(7, 2)', 'div(-7, 2)', 'sqrt(16)', 'sqrt(2::float8)', 'cbrt(27::float8)', 'power(2, 10)',
    'power(2.0, -1)', 'exp(1::float8)', 'ln(10::float8)', 'log(100)', 'log(2, 8)', 'pi()', 'degrees(pi())', 'radians(180)', 'greatest(1, 5, 3)',
    'least(1.5, -2, 3)', 'greatest(1, NULL, 3)', 'gcd(12, 18)', 'lcm(4, 6)', 'factorial(5)', 'width_bucket(5.5, 0, 10, 4)', '5 / 2 * 2 + 5 % 2',
    '(7 / 2)::float8', '7 / 2::float8', 'CAST(7 AS numeric) / 2', '(1 + 2) * 3 - 4 / 2', '17 / 5 % 3', '-(-3)', '|/ 25.0', '@ -4',
    '8 >> 1', '1 << 4', '5 & 3', '5 | 3', '5 # 3', '~5', 'scale(1.2300)', 'min_scale(1.2300)', 'trim_scale(1.2300)',
  ]),
  ...perRow('numbers', [
    'a / b', 'a % b', 'a / 2', 'a * b', 'a - b * 2', 'x / 2', 'x * a', 'a / x', 'a::float8 / b', 'a::numeric / b', 'round(x)', 'round(y, 1)',
    'round(x::numeric)', 'ceil(x)', 'floor(y)', 'trunc(y)', 'abs(a - 10)', 'a / b * b + a % b', 'x + y', 'round((x * 100)::numeric) / 100',
    'greatest(a, b)', 'least(x, y)', 'coalesce(a, 0) / b', 'nullif(a, 0)', 'a / nullif(b, 0)', 'power(b, 2)', 'sqrt(abs(y))', 'a::float8 / 3',
    '(a + b) / 2', '(a + b) / 2.0', 'a * 1.0 / b', 'div(a, b)', 'mod(a, b)', 'sign(x)', 'round(x * 2) / 2', 'a > b', 'x >= y', 'a = b * 3 + 1',
    'a BETWEEN 0 AND 10', 'x IS NULL', 'a IN (7, 9, 15)', 'a NOT IN (0, 1)', 'a IS DISTINCT FROM 7', '-a', '+x', 'a ^ 2',
  ]),
]);
