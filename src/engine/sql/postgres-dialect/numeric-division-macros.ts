/**
 * Postgres divides numerics exactly to a scale it picks from the operands' values (numeric.c,
 * select_div_scale): at least 16 significant digits, more when the quotient is small, never fewer
 * decimals than either operand shows, rounded half away from zero; `1 / 3.0` is
 * 0.33333333333333333333, so `(1 / 3.0) * 3 = 1` is false. DuckDB divides decimals into a double.
 *
 * `pgx_numeric_div(a, b)` computes the quotient from the operands' texts (a DECIMAL's text shows its
 * scale) in 128-bit integers, 20 decimals at most, and answers a DECIMAL(38, 20): the value Postgres
 * gives wherever its scale is 20 or less (a quotient from about 1e-4 up to 1e18, operands of up to
 * 18 digits); beyond 20 decimals it is cut to 20. Postgres weighs numbers in groups of four decimal
 * digits (NBASE 10000): `w` is the weight of the leading group, `f` its value.
 */
const pow10 = (k: string) => `CAST(power(10, ${k}) AS HUGEINT)`;

export const numericDivisionDefinitions: readonly string[] = [
  // A number's text as Postgres' digits: the absolute unscaled value, its scale, its sign, the weight and value of its leading group.
  `pgx_numeric_parts(v) AS list_transform([CAST(v AS VARCHAR)], lambda t: list_transform([{'t': t, 'digits': ltrim(regexp_replace(t, '[^0-9]', '', 'g'), '0'),
    's': length(regexp_extract(t, '\\.([0-9]*)$', 1))}], lambda d: list_transform([{'d': d, 'e': length(d.digits) - 1 - d.s}], lambda g: {
      'u': CAST(regexp_replace(d.t, '[^0-9]', '', 'g') AS HUGEINT), 's': d.s, 'neg': starts_with(d.t, '-'),
      'w': CAST(floor(g.e / 4) AS INTEGER), 'f': coalesce(TRY_CAST(rpad(d.digits, CAST(g.e - 4 * floor(g.e / 4) + 1 AS INTEGER), '0') AS INTEGER), 0)})[1])[1])[1]`,
  // The scale of the quotient: 16 significant digits from the quotient's estimated weight, at least the operands' scales, at most 20 here.
  `pgx_numeric_div_scale(p, q) AS least(greatest(16 - 4 * (p.w - q.w - CASE WHEN p.f <= q.f THEN 1 ELSE 0 END), p.s, q.s, 0), 20)`,
  // The quotient's absolute value times 10^20, digit 21 after it, computed ten decimals at a time so no product passes 128 bits.
  `pgx_numeric_scaled(n, d) AS list_transform([{'i': n // d, 'r1': (n % d) * ${pow10('10')}}], lambda a: list_transform([{'f1': a.r1 // d, 'r2': (a.r1 % d) * ${pow10('10')}}],
    lambda b: {'t': a.i * ${pow10('20')} + b.f1 * ${pow10('10')} + b.r2 // d, 'next': ((b.r2 % d) * 10) // d})[1])[1]`,
  // Rounded half away from zero at the scale, shown with 20 decimals and read back as a DECIMAL(38, 20).
  `pgx_numeric_rounded(v, scale, negative) AS list_transform([{'unit': ${pow10('20 - scale')}, 'low': v.t % ${pow10('20 - scale')}}], lambda r: list_transform(
    [CAST(v.t - r.low + CASE WHEN r.low * 10 + v.next >= 5 * r.unit THEN r.unit ELSE 0 END AS VARCHAR)], lambda y: list_transform([lpad(y, CAST(greatest(21, length(y)) AS INTEGER), '0')],
      lambda x: CAST(CASE WHEN negative THEN '-' ELSE '' END || left(x, length(x) - 20) || '.' || right(x, 20) AS DECIMAL(38, 20)))[1])[1])[1]`,
  `pgx_numeric_div(a, b) AS list_transform([{'p': pgx_numeric_parts(a), 'q': pgx_numeric_parts(b)}], lambda o: pgx_numeric_rounded(
    pgx_numeric_scaled(o.p.u * ${pow10('greatest(o.p.s, o.q.s) - o.p.s')}, o.q.u * ${pow10('greatest(o.p.s, o.q.s) - o.q.s')}),
    pgx_numeric_div_scale(o.p, o.q), o.p.neg <> o.q.neg))[1]`,
];
