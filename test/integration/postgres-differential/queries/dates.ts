import { category, perRow, scalars } from './entry';

const units = ['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute'];
const fields = ['year', 'month', 'day', 'dow', 'isodow', 'doy', 'week', 'quarter', 'hour', 'minute', 'second', 'epoch', 'decade', 'isoyear'];

export const dates = category('dates', [
  ...units.map((unit) => `SELECT date_trunc('${unit}', timestamp '2024-02-29 13:45:30.5')`),
  ...units.map((unit) => `SELECT date_trunc('${unit}', timestamptz '2024-02-29 13:45:30.5+00')`),
  ...units.slice(0, 5).map((unit) => `SELECT date_trunc('${unit}', date '2024-02-29')`),
  ...fields.map((field) => `SELECT extract(${field} FROM timestamp '2024-02-29 13:45:30.5')`),
  ...fields.slice(0, 8).map((field) => `SELECT date_part('${field}', date '2024-02-29')`),
  ...scalars([
    "date '2024-01-31' + interval '1 month'", "date '2024-02-29' - interval '1 year'", "date '2024-03-01' - date '2024-02-01'", "date '2024-01-15' - 10",
    "timestamp '2024-01-15 10:00' - timestamp '2024-01-14 08:30'", "age(timestamp '2024-03-15', timestamp '2023-01-01')", "age(date '2024-01-01', date '2023-12-25')",
    "interval '1 day' * 3", "interval '1 hour' / 2", "interval '90 minutes'", "interval '1 day 2 hours' + interval '30 minutes'", "interval '1 year 2 months'",
    "justify_hours(interval '27 hours')", "justify_days(interval '35 days')", "justify_interval(interval '1 mon -1 hour')", "make_date(2024, 2, 29)", "make_date(2023, 2, 29)",
    "make_timestamp(2024, 1, 15, 10, 30, 0)", "make_interval(days => 3)", "to_char(date '2024-03-05', 'YYYY-MM-DD')", "to_char(timestamp '2024-03-05 14:07:09', 'HH24:MI:SS')",
    "to_char(timestamp '2024-03-05 14:07:09', 'Mon DD, YYYY')", "to_char(date '2024-03-05', 'Day')", "to_char(date '2024-03-05', 'Q')", "to_date('05/03/2024', 'DD/MM/YYYY')",
    "to_timestamp('2024-03-05 14:07', 'YYYY-MM-DD HH24:MI')", "to_timestamp(0)", "to_timestamp(1700000000)", "extract(epoch FROM interval '1 day')",
    "extract(day FROM interval '40 days')", "date_part('hour', interval '5 hours 30 minutes')", "timestamp '2024-01-15 10:00' AT TIME ZONE 'UTC'",
    "timestamptz '2024-01-15 10:00+00' AT TIME ZONE 'America/New_York'", "timestamp '2024-01-15 10:00' AT TIME ZONE 'Europe/Paris'", "date '2024-01-15' = timestamp '2024-01-15'",
    "date '2024-01-15' < date '2024-01-16'", "(date '2024-01-01', date '2024-02-01') OVERLAPS (date '2024-01-15', date '2024-03-01')", "date '2024-12-31' + 1",
    "'2024-01-15'::date + time '10:30'", "date_bin('15 minutes', timestamp '2024-01-15 10:38', timestamp '2024-01-01')", "isfinite(date '2024-01-01')",
    "extract(dow FROM date '2024-01-14')", "extract(week FROM date '2024-12-30')", "extract(isoyear FROM date '2024-12-30')", "date_trunc('week', date '2024-01-14')",
    "timestamp '2024-01-15 10:00' + interval '1 day 1 second'", "interval '1 month' = interval '30 days'", "interval '1 day' > interval '23 hours'", "'P1D'::interval + date '2024-01-01'",
    "extract(month FROM date '2024-06-15') = 6", "generate_series(date '2024-01-01', date '2024-01-05', interval '1 day')",
    "date '2024-01-15'::text", "timestamp '2024-01-15 10:00:00.5'::text", "to_char(12345.678, 'FM99,999.00')", "to_char(0.5, '0.00')", "date_trunc('month', now()) <= now()",
  ]),
  ...perRow('orders', ["date_trunc('month', ordered_at)", "date_trunc('day', ordered_at)::date", "extract(hour FROM ordered_at)", "extract(dow FROM ordered_at)", "ordered_at::date",
    "shipped_on - ordered_at::date", "shipped_on - 1", "shipped_on + interval '1 week'", "to_char(ordered_at, 'YYYY-MM')", "age(shipped_on, ordered_at::date)", "date_part('month', shipped_on)",
    "ordered_at + interval '2 hours'", "ordered_at > timestamptz '2024-03-01'", "date_trunc('quarter', shipped_on)", "extract(epoch FROM ordered_at)::bigint", "ordered_at::time",
    "ordered_at - lag(ordered_at) OVER (ORDER BY id)", "date_trunc('week', ordered_at)", "extract(doy FROM shipped_on)", "to_char(shipped_on, 'DD Mon YYYY')"]),
  `SELECT d::date AS day, count(o.id) AS orders FROM generate_series(date '2024-03-12', date '2024-03-16', interval '1 day') AS g(d) LEFT JOIN shop.orders o ON o.ordered_at::date = g.d::date GROUP BY 1 ORDER BY 1`,
  `SELECT g.day, count(o.id) FROM generate_series(timestamptz '2024-01-01', timestamptz '2024-06-01', interval '1 month') AS g(day) LEFT JOIN shop.orders o ON date_trunc('month', o.ordered_at) = g.day GROUP BY g.day ORDER BY g.day`,
  `SELECT c.name, g.day::date FROM shop.customers c CROSS JOIN generate_series(c.signup, c.signup + 2, interval '1 day') AS g(day) WHERE c.id <= 2 ORDER BY 1, 2`,
  `SELECT m, coalesce(sum(o.total), 0) AS revenue FROM generate_series(1, 6) AS m LEFT JOIN shop.orders o ON extract(month FROM o.ordered_at) = m GROUP BY m ORDER BY m`,
  `SELECT date_trunc('month', ordered_at) AS month, count(*), sum(total) FROM shop.orders GROUP BY 1 ORDER BY 1`,
  `SELECT to_char(ordered_at, 'YYYY-"Q"Q') AS quarter, count(*) FROM shop.orders GROUP BY 1 ORDER BY 1`,
]);
