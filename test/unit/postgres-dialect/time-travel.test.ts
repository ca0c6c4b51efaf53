import { describe, expect, test } from 'bun:test';
import { translatePostgres } from '../../../src/engine/sql/postgres-dialect';

const sql = (text: string) => translatePostgres(text).sql;

describe('FOR SYSTEM_TIME AS OF', () => {
  test('a string literal becomes a TIMESTAMPTZ literal, so an offset counts; without an alias AT follows the table', () => {
    expect(sql("SELECT * FROM events FOR SYSTEM_TIME AS OF '2024-05-01 12:00:00'")).toBe(
      "SELECT * FROM events AT (TIMESTAMP => TIMESTAMPTZ '2024-05-01 12:00:00')",
    );
    expect(sql("SELECT * FROM events FOR SYSTEM_TIME AS OF '2024-05-01T12:00:00.123456+02:00'")).toBe(
      "SELECT * FROM events AT (TIMESTAMP => TIMESTAMPTZ '2024-05-01T12:00:00.123456+02:00')",
    );
  });

  test('an alias after the clause moves before AT, with or without AS', () => {
    expect(sql("SELECT o.id FROM lake.raw.orders FOR SYSTEM_TIME AS OF '2024-05-01' AS o WHERE o.id > 1")).toBe(
      "SELECT o.id FROM lake.raw.orders AS o AT (TIMESTAMP => TIMESTAMPTZ '2024-05-01') WHERE o.id > 1",
    );
    expect(sql("SELECT * FROM t FOR SYSTEM_TIME AS OF '2024-05-01' o JOIN u ON u.id = o.id")).toBe(
      "SELECT * FROM t AS o AT (TIMESTAMP => TIMESTAMPTZ '2024-05-01') JOIN u ON u.id = o.id",
    );
  });

  test('an alias before the clause stays where it is', () => {
    expect(sql("SELECT * FROM t AS o FOR SYSTEM_TIME AS OF '2024-05-01'")).toBe("SELECT * FROM t AS o AT (TIMESTAMP => TIMESTAMPTZ '2024-05-01')");
    expect(sql("SELECT * FROM t o FOR SYSTEM_TIME AS OF '2024-05-01', u")).toBe("SELECT * FROM t o AT (TIMESTAMP => TIMESTAMPTZ '2024-05-01'), u");
  });

  test('timestamp expressions are kept whole', () => {
    expect(sql("SELECT * FROM t FOR SYSTEM_TIME AS OF now() - interval '1 day' AS old")).toBe(
      "SELECT * FROM t AS old AT (TIMESTAMP => now() - interval '1 day')",
    );
    expect(sql("SELECT * FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '2024-05-01' LEFT JOIN u ON true")).toBe(
      "SELECT * FROM t AT (TIMESTAMP => TIMESTAMP '2024-05-01') LEFT JOIN u ON true",
    );
    expect(sql("SELECT * FROM t FOR SYSTEM_TIME AS OF CAST('2024-05-01' AS TIMESTAMPTZ) WHERE true")).toBe(
      "SELECT * FROM t AT (TIMESTAMP => CAST('2024-05-01' AS TIMESTAMPTZ)) WHERE true",
    );
  });

  test('both sides of a join and a subquery can travel', () => {
    expect(sql("SELECT * FROM a FOR SYSTEM_TIME AS OF '2024-01-01' AS x JOIN (SELECT * FROM b FOR SYSTEM_TIME AS OF '2024-02-01') y ON true")).toBe(
      "SELECT * FROM a AS x AT (TIMESTAMP => TIMESTAMPTZ '2024-01-01') JOIN (SELECT * FROM b AT (TIMESTAMP => TIMESTAMPTZ '2024-02-01')) y ON true",
    );
  });

  test('the words inside strings and comments are left alone', () => {
    const text = "SELECT 'FOR SYSTEM_TIME AS OF now()' FROM t /* FOR SYSTEM_TIME AS OF '2024' */";
    expect(translatePostgres(text)).toEqual({ sql: text, rewrites: [] });
  });

  test('an incomplete clause is passed on for DuckDB to reject', () => {
    const text = 'SELECT * FROM t FOR SYSTEM_TIME AS OF';
    expect(translatePostgres(text)).toEqual({ sql: text, rewrites: [] });
  });
});
