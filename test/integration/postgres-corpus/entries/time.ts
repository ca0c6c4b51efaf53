import type { CorpusEntry } from '../corpus-entry';

/** Dates, timestamps, intervals and their functions. */
export const time: CorpusEntry[] = [
  {
    name: 'extract fields',
    sql: 'SELECT id, extract(year FROM ordered_at), extract(month FROM ordered_at), extract(day FROM ordered_at), extract(hour FROM ordered_at), extract(minute FROM ordered_at) FROM orders',
  },
  {
    name: 'extract seconds keeps fraction',
    sql: 'SELECT id, extract(second FROM occurred_at), extract(milliseconds FROM occurred_at), extract(microseconds FROM occurred_at) FROM events',
  },
  {
    name: 'extract calendar fields',
    sql: 'SELECT id, extract(dow FROM ordered_at), extract(isodow FROM ordered_at), extract(doy FROM ordered_at), extract(week FROM ordered_at), extract(quarter FROM ordered_at), extract(isoyear FROM ordered_at) FROM orders',
  },
  { name: 'extract epoch', sql: 'SELECT id, extract(epoch FROM ordered_at), extract(epoch FROM occurred_at) FROM orders JOIN events USING (id)' },
  {
    name: 'extract century decade millennium',
    sql: 'SELECT extract(century FROM signup_date), extract(decade FROM signup_date), extract(millennium FROM signup_date) FROM customers',
  },
  { name: 'date_part', sql: "SELECT id, date_part('year', hired_on), date_part('dow', hired_on), date_part('epoch', hired_on) FROM employees" },
  { name: 'date_part seconds', sql: "SELECT id, date_part('second', occurred_at), date_part('milliseconds', occurred_at) FROM events" },
  {
    name: 'date_trunc units',
    sql: "SELECT id, date_trunc('year', ordered_at), date_trunc('quarter', ordered_at), date_trunc('week', ordered_at), date_trunc('day', ordered_at), date_trunc('hour', ordered_at) FROM orders",
  },
  {
    name: 'date_trunc on timestamp without zone',
    sql: "SELECT date_trunc('minute', occurred_at), date_trunc('second', occurred_at), date_trunc('milliseconds', occurred_at) FROM events",
  },
  {
    name: 'date arithmetic',
    sql: "SELECT id, hired_on + 30 AS plus30, hired_on - 1 AS minus1, date '2024-12-31' - hired_on AS days_left, hired_on + interval '1 month' AS next_month FROM employees",
  },
  {
    name: 'month end arithmetic',
    sql: "SELECT d, d + interval '1 month' AS next, (date_trunc('month', d) + interval '1 month' - interval '1 day')::date AS month_end FROM (VALUES (date '2024-01-31'), (date '2024-02-29'), (date '2023-12-15')) t(d)",
  },
  {
    name: 'timestamp arithmetic',
    sql: "SELECT id, ordered_at + interval '90 minutes', ordered_at - interval '1 day 2 hours', ordered_at + interval '1 year' FROM orders",
  },
  { name: 'timestamp differences', sql: 'SELECT a.id, b.id, b.ordered_at - a.ordered_at AS gap FROM orders a JOIN orders b ON b.id = a.id + 1' },
  { name: 'age', sql: "SELECT id, age(timestamp '2024-07-01 00:00:00', hired_on::timestamp), age(date '2024-07-01', hired_on) FROM employees" },
  {
    name: 'interval literals and arithmetic',
    sql: "SELECT interval '1 day' * 3, interval '2 hours 30 minutes' + interval '45 minutes', interval '1 month' - interval '1 day', interval '1.5 days', interval '-1 day 2 hours', interval '2 weeks', interval '1' day",
  },
  { name: 'interval division and multiplication', sql: "SELECT interval '1 day' / 2, 2 * interval '3 hours', interval '1 hour' * 1.5" },
  {
    name: 'extract from intervals',
    sql: "SELECT extract(epoch FROM interval '1 day 2 hours'), extract(hour FROM interval '36 hours'), extract(day FROM interval '3 days 4 hours'), extract(minute FROM interval '90 minutes')",
  },
  {
    name: 'epoch of timestamp differences',
    sql: 'SELECT id, extract(epoch FROM (lead(occurred_at) OVER (ORDER BY occurred_at, id) - occurred_at)) AS seconds_to_next FROM events',
  },
  {
    name: 'to_char dates',
    sql: "SELECT id, to_char(ordered_at, 'YYYY-MM-DD HH24:MI:SS'), to_char(ordered_at, 'DD/MM/YY'), to_char(ordered_at, 'Mon DD, YYYY'), to_char(ordered_at, 'FMMonth FMDD') FROM orders",
  },
  {
    name: 'to_char names and padding',
    sql: "SELECT id, to_char(hired_on, 'Day'), to_char(hired_on, 'Dy'), to_char(hired_on, 'MONTH'), to_char(hired_on, 'month'), to_char(hired_on, 'FMDay') FROM employees",
  },
  {
    name: 'to_char clock',
    sql: "SELECT id, to_char(occurred_at, 'HH12:MI:SS AM'), to_char(occurred_at, 'HH24:MI:SS.MS'), to_char(occurred_at, 'HH24:MI:SS.US') FROM events",
  },
  {
    name: 'to_char calendar fields',
    sql: "SELECT id, to_char(ordered_at, 'YYYY-\"Q\"Q'), to_char(ordered_at, 'IYYY-\"W\"IW'), to_char(ordered_at, 'DDD'), to_char(ordered_at, 'D'), to_char(ordered_at, 'WW'), to_char(ordered_at, 'CC') FROM orders",
  },
  {
    name: 'to_char numbers',
    sql: "SELECT id, to_char(balance, 'FM999,990.00'), to_char(balance, '99999.99'), to_char(id, '000'), to_char(balance, 'FM9999.99') FROM customers",
  },
  {
    name: 'to_date and to_timestamp',
    sql: "SELECT to_date('05/03/2024', 'DD/MM/YYYY'), to_timestamp('2024-03-05 14:07:09', 'YYYY-MM-DD HH24:MI:SS'), to_timestamp(1709647629)",
  },
  { name: 'make_date and make_timestamp', sql: 'SELECT make_date(2024, 2, 29), make_timestamp(2024, 3, 5, 14, 7, 9.5)' },
  { name: 'generate_series over timestamps', sql: "SELECT * FROM generate_series(timestamp '2024-01-01', timestamp '2024-01-02', interval '6 hours')" },
  { name: 'generate_series integers in select', sql: 'SELECT generate_series(1, 4) AS n' },
  {
    name: 'generate_series with alias',
    sql: "SELECT d::date AS day FROM generate_series(timestamp '2024-03-01', timestamp '2024-03-05', interval '1 day') AS d",
  },
  {
    name: 'calendar gap filling',
    sql: "SELECT d::date AS day, count(o.id) AS orders FROM generate_series(timestamptz '2024-03-13', timestamptz '2024-03-16', interval '1 day') AS d LEFT JOIN orders o ON date_trunc('day', o.ordered_at) = d GROUP BY d",
  },
  {
    name: 'monthly revenue report',
    sql: "SELECT to_char(date_trunc('month', o.ordered_at), 'YYYY-MM') AS month, sum(i.quantity * i.unit_price) AS revenue, count(DISTINCT o.id) AS orders FROM orders o JOIN order_items i ON i.order_id = o.id WHERE o.status <> 'cancelled' GROUP BY 1 ORDER BY 1",
  },
  { name: 'date_bin buckets', sql: "SELECT date_bin(interval '15 minutes', occurred_at, timestamp '2024-01-01') AS bucket, count(*) FROM events GROUP BY 1" },
  { name: 'at time zone', sql: "SELECT id, ordered_at AT TIME ZONE 'America/New_York', (ordered_at AT TIME ZONE 'Asia/Tokyo')::date FROM orders" },
  {
    name: 'timestamptz literals with offsets',
    sql: "SELECT id FROM orders WHERE ordered_at >= '2024-03-01 02:00:00+02' AND ordered_at < timestamptz '2024-03-15 16:20:10.5+02:00'",
  },
  {
    name: 'current date functions are consistent',
    sql: "SELECT now() >= timestamptz '2024-01-01', current_date > date '2024-01-01', current_timestamp = now(), localtimestamp IS NOT NULL, now()::date = current_date",
  },
  { name: 'dates compared with strings', sql: "SELECT id FROM customers WHERE signup_date >= '2023-05-01' AND signup_date < '2023-12-31'" },
  {
    name: 'retention cohort',
    sql: "SELECT date_trunc('month', c.signup_date)::date AS cohort, date_part('month', age(date_trunc('month', o.ordered_at), date_trunc('month', c.signup_date))) + 12 * date_part('year', age(date_trunc('month', o.ordered_at), date_trunc('month', c.signup_date))) AS months_after, count(DISTINCT c.id) FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY 1, 2",
  },
  { name: 'justify and isfinite', sql: "SELECT isfinite(date '2024-01-01'), isfinite(timestamp '2024-01-01 00:00')" },
];
