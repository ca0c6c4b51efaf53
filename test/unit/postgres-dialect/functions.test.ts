import { describe, expect, test } from 'bun:test';
import { translatePostgres } from '../../../src/engine/sql/postgres-dialect';

const sql = (text: string) => translatePostgres(text).sql;

describe('date and time functions', () => {
  test('to_char with a datetime template becomes strftime, with expressions for fields strftime lacks', () => {
    expect(sql("SELECT to_char(ts, 'YYYY-MM-DD HH24:MI:SS') FROM t")).toBe("SELECT strftime(ts, '%Y-%m-%d %H:%M:%S') FROM t");
    expect(sql(`SELECT to_char(ts, 'FMDD "of" FMMonth, YYYY "100%"') FROM t`)).toBe(
      "SELECT (strftime(ts, '%-d of ') || strftime(ts, '%B') || strftime(ts, ', %Y 100%%')) FROM t",
    );
    expect(sql(`SELECT to_char(ts, 'YYYY-"Q"Q') FROM t`)).toBe("SELECT (strftime(ts, '%Y-Q') || CAST(quarter(ts) AS VARCHAR)) FROM t");
    expect(sql("SELECT to_char(ts, 'Mon') FROM t")).toBe("SELECT strftime(ts, '%b') FROM t");
    expect(sql("SELECT to_char(ts, 'Day') FROM t")).toBe("SELECT rpad(strftime(ts, '%A'), 9, ' ') FROM t");
  });

  test('to_char with a template it cannot express, or a non-literal template, is left for DuckDB to reject', () => {
    expect(translatePostgres("SELECT to_char(ts, 'RM') FROM t").rewrites).toEqual([]);
    expect(translatePostgres("SELECT to_char(ts, 'DDTH') FROM t").rewrites).toEqual([]);
    expect(translatePostgres('SELECT to_char(ts, fmt) FROM t').rewrites).toEqual([]);
  });

  test('to_timestamp and to_date with a template parse with strptime; to_timestamp(epoch) stays', () => {
    expect(sql("SELECT to_timestamp(s, 'DD/MM/YYYY HH24:MI'), to_date(s, 'YYYYMMDD'), to_timestamp(0) FROM t")).toBe(
      "SELECT CAST(strptime(s, '%d/%m/%Y %H:%M') AS TIMESTAMPTZ), CAST(strptime(s, '%Y%m%d') AS DATE), to_timestamp(0) FROM t",
    );
  });

  test('seconds and milliseconds keep their fraction; other fields stay', () => {
    expect(
      sql("SELECT extract(second FROM ts), EXTRACT('milliseconds' FROM ts), extract(epoch FROM ts), date_part('second', ts), date_part('year', ts) FROM t"),
    ).toBe(
      "SELECT (extract(microseconds FROM pgx_time_field_of(ts, 'second')) / 1e6), (extract(microseconds FROM pgx_time_field_of(ts, 'milliseconds')) / 1e3), extract(epoch FROM ts), (date_part('microseconds', ts) / 1e6), date_part('year', ts) FROM t",
    );
  });

  test('date_bin, make_interval, clock_timestamp', () => {
    expect(
      sql(
        "SELECT date_bin(interval '15 minutes', ts, timestamp '2024-01-01'), make_interval(days => n, hours => 2), make_interval(1, 2), clock_timestamp() FROM t",
      ),
    ).toBe(
      "SELECT time_bucket(interval '15 minutes', ts, timestamp '2024-01-01'), (to_days(CAST(n AS INTEGER)) + to_hours(CAST(2 AS BIGINT))), (to_years(CAST(1 AS INTEGER)) + to_months(CAST(2 AS INTEGER))), now() FROM t",
    );
  });
});

describe('string functions', () => {
  test('substring: a regex after FROM extracts, positions stay', () => {
    expect(sql("SELECT substring(s FROM '[0-9]+'), substring(s FROM '(a)(b)'), substring(s FROM 2 FOR 3), substring(s, 2) FROM t")).toBe(
      "SELECT CASE WHEN regexp_matches(s, '[0-9]+') THEN regexp_extract(s, '[0-9]+', 0) END, CASE WHEN regexp_matches(s, '(a)(b)') THEN regexp_extract(s, '(a)(b)', 1) END, substr(s, greatest(2, 1), greatest((2) + pgx_substr_length(3) - greatest(2, 1), 0)), substr(s, greatest(2, 1)) FROM t",
    );
  });

  test('overlay, padding, trimming, format and hex', () => {
    expect(sql("SELECT overlay(s PLACING 'xy' FROM 2 FOR 3), overlay(s PLACING 'z' FROM 4), lpad(s, 5), rpad(s, 5, '-'), btrim(s), btrim(s, 'x') FROM t")).toBe(
      "SELECT (substr(s, 1, (2) - 1) || 'xy' || substr(s, (2) + (3))), (substr(s, 1, (4) - 1) || 'z' || substr(s, (4) + (length('z')))), lpad(s, 5, ' '), rpad(s, 5, '-'), trim(s), trim(s, 'x') FROM t",
    );
    expect(sql("SELECT format('%s has %s%%', name, n), format('{}', x), to_hex(n), encode(b, 'hex'), decode(s, 'base64'), octet_length(s) FROM t")).toBe(
      "SELECT (coalesce(pgx_text(name), '') || ' has ' || coalesce(pgx_text(n), '') || '%'), '{}', pgx_to_hex(n), lower(hex(b)), from_base64(s), strlen(s) FROM t",
    );
  });

  test('regular expression functions', () => {
    expect(sql("SELECT regexp_match(s, '(\\w+)-(\\d+)'), regexp_count(s, 'a'), regexp_like(s, 'A', 'i') FROM t")).toBe(
      "SELECT CASE WHEN regexp_matches(s, '(\\w+)-(\\d+)') THEN [regexp_extract(s, '(\\w+)-(\\d+)', 1), regexp_extract(s, '(\\w+)-(\\d+)', 2)] END, len(regexp_extract_all(s, 'a')), regexp_matches(s, 'A', 'i') FROM t",
    );
  });

  test('initcap capitalises each run of letters and digits', () => {
    expect(sql('SELECT initcap(s) FROM t')).toBe(
      "SELECT array_to_string(list_transform(regexp_extract_all(s, '[\\pL\\pN]+|[^\\pL\\pN]+'), lambda __w: pgx_upper(__w[1]) || lower(__w[2:])), '') FROM t",
    );
  });
});

describe('JSON functions', () => {
  test('builders, aggregates and conversions', () => {
    expect(sql("SELECT jsonb_build_object('a', 1), json_build_array(1, 2), to_jsonb(x), jsonb_object_agg(k, v), jsonb_array_length(j) FROM t")).toBe(
      "SELECT json_object('a', 1), json_array(1, 2), to_json(x), to_json(map_from_entries(list({'key': CAST(k AS VARCHAR), 'value': v}))), pgx_jsonb_array_length(j) FROM t",
    );
    expect(sql('SELECT jsonb_agg(x ORDER BY y) FILTER (WHERE z) OVER (PARTITION BY g), json_agg(t) FROM t')).toBe(
      'SELECT to_json(list(x ORDER BY y) FILTER (WHERE z) OVER (PARTITION BY g)), to_json(list(t)) FROM t',
    );
  });

  test('typeof and extract_path', () => {
    expect(sql("SELECT jsonb_typeof(j), jsonb_extract_path_text(j, 'a', '0'), json_extract_path(j, k) FROM t")).toBe(
      "SELECT CASE json_type(j) WHEN 'VARCHAR' THEN 'string' WHEN 'BIGINT' THEN 'number' WHEN 'UBIGINT' THEN 'number' WHEN 'DOUBLE' THEN 'number' WHEN 'HUGEINT' THEN 'number' ELSE lower(json_type(j)) END, json_extract_string(j, '$.a[0]'), json_extract(j, k) FROM t",
    );
  });
});

describe('set-returning functions', () => {
  test('in FROM, a single-column function with only an alias names its column after it', () => {
    expect(sql('SELECT * FROM t, jsonb_array_elements(t.j) AS e, unnest(t.a) u, generate_series(1, 3) AS g(n), jsonb_array_elements_text(t.k)')).toBe(
      "SELECT * FROM t, unnest(json_extract(pgx_json_array(t.j), '$[*]')) AS e(e), unnest(t.a) AS u(u), unnest(CAST(generate_series(1, 3) AS INTEGER[])) AS g(n), unnest(json_extract_string(pgx_json_array(t.k), '$[*]')) AS jsonb_array_elements_text(value)",
    );
    expect(sql('SELECT * FROM t CROSS JOIN LATERAL unnest(t.a) WITH ORDINALITY AS x JOIN jsonb_each(t.j) kv ON true')).toBe(
      'SELECT * FROM t CROSS JOIN LATERAL unnest(t.a) WITH ORDINALITY AS x(x, ordinality) JOIN (SELECT key, pgx_jsonb_sorted(value) AS value FROM json_each(t.j) ORDER BY strlen(key), key) AS kv ON true',
    );
  });

  test('in FROM, a long series of integers stays the table function, which streams its rows; a short one is the list of its integers', () => {
    expect(sql('SELECT sum(a.x * b.x) FROM generate_series(1, 100000000) a(x) CROSS JOIN generate_series(1, 100001) b(x)')).toBe(
      'SELECT pgx_sum(a.x * b.x) FROM generate_series(1, 100000000) a(x) CROSS JOIN generate_series(1, 100001) b(x)',
    );
    expect(sql('SELECT * FROM generate_series(1, 100000) g')).toBe('SELECT * FROM unnest(CAST(generate_series(1, 100000) AS INTEGER[])) AS g(g)');
    expect(sql('SELECT * FROM generate_series(0, 999990, 10) g')).toBe(
      'SELECT * FROM unnest(CAST(generate_series(0, 999990, pgx_step(10)) AS INTEGER[])) AS g(g)',
    );
  });

  test('in a SELECT list they expand into rows', () => {
    expect(sql('SELECT generate_series(1, n), jsonb_array_elements(j), jsonb_object_keys(j) FROM t')).toBe(
      "SELECT unnest(generate_series(1, n)), unnest(json_extract(pgx_json_array(j), '$[*]')), unnest(pgx_jsonb_key_order(json_keys(pgx_json_object(j, 'jsonb_object_keys')))) FROM t",
    );
  });
});

describe('arrays, numbers and aggregates', () => {
  test('array functions', () => {
    expect(
      sql("SELECT cardinality(a), array_length(a, 1), array_upper(a, 1), array_remove(a, 'x'), array_replace(a, 1, 2), array_to_string(a, ',', '*') FROM t"),
    ).toBe(
      "SELECT pgx_cardinality(a), nullif(len(a), 0), nullif(len(a), 0), list_filter(a, lambda __e: __e IS DISTINCT FROM ('x')), list_transform(a, lambda __e: CASE WHEN __e IS NOT DISTINCT FROM (1) THEN 2 ELSE __e END), array_to_string(list_transform(a, lambda __e: coalesce(CAST(__e AS VARCHAR), '*')), ',') FROM t",
    );
  });

  test('div, width_bucket, every, num_nulls', () => {
    expect(sql('SELECT div(a, b), width_bucket(x, 0, 10, 5), every(p), num_nulls(a, b) FROM t')).toBe(
      'SELECT trunc((a) // pgx_divisor(b)), pgx_width_bucket(x, 0, 10, 5), bool_and(p), (CASE WHEN (a) IS NULL THEN 1 ELSE 0 END + CASE WHEN (b) IS NULL THEN 1 ELSE 0 END) FROM t',
    );
  });

  test('a qualified name or a type is not a call to rewrite', () => {
    expect(translatePostgres('SELECT s.to_char(x), x::decimal(10, 2), my.initcap(y) FROM t').rewrites).toEqual([]);
  });

  test('the rewrite log names each kind of change once', () => {
    expect(translatePostgres("SELECT to_char(a, 'YYYY'), to_char(b, 'MM') FROM t ORDER BY a DESC").rewrites).toEqual([
      'to_char → strftime / format',
      'descending sort keys: NULLS FIRST as in Postgres',
    ]);
  });
});
