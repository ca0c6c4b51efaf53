import { describe, expect, test } from 'bun:test';
import { mapDuckDBError } from '../../src/engine/sql/map-duckdb-error';

const mapped = (message: string) => mapDuckDBError(new Error(message), { sql: 'SELECT 1', privatePaths: [] });

describe("DuckDB's errors with the SQLSTATE Postgres raises for the same fault", () => {
  test('errors the Postgres macros raise keep their SQLSTATE, with a code by its class', async () => {
    expect(await mapped('Invalid Input Error: [22012] division by zero')).toMatchObject({
      code: 'INVALID_VALUE',
      sqlstate: '22012',
      message: 'division by zero',
    });
    expect(await mapped('Invalid Input Error: [42883] function max(boolean) does not exist')).toMatchObject({ code: 'UNDEFINED_FUNCTION', sqlstate: '42883' });
  });

  test('conversions are read as Postgres words them', async () => {
    expect(await mapped("Conversion Error: Could not convert string 'seven' to INT32 when casting from source column label")).toMatchObject({
      code: 'INVALID_VALUE',
      sqlstate: '22P02',
      message: 'invalid input syntax for type integer: "seven"',
    });
    expect(await mapped('Conversion Error: Could not convert string "1,5" to DECIMAL(38,10)')).toMatchObject({
      sqlstate: '22P02',
      message: 'invalid input syntax for type numeric: "1,5"',
    });
    expect(await mapped('Conversion Error: date field value out of range: "2024-02-30"')).toMatchObject({ sqlstate: '22008' });
    expect(await mapped('Conversion Error: Malformed JSON at byte 1 of input: unexpected character.')).toMatchObject({ sqlstate: '22P02' });
    expect(await mapped('Out of Range Error: Overflow in addition of INT32 (2147483647 + 1)!')).toMatchObject({
      sqlstate: '22003',
      message: 'integer out of range',
    });
  });

  test('catalog, binder and parser errors keep the service’s code where it says more, and gain the SQLSTATE', async () => {
    expect(await mapped('Binder Error: Referenced column "nosuch" not found in FROM clause!')).toMatchObject({ code: 'UNDEFINED_COLUMN', sqlstate: '42703' });
    expect(await mapped('Catalog Error: Table with name nosuch does not exist!')).toMatchObject({ code: 'UNDEFINED_TABLE', sqlstate: '42P01' });
    expect(await mapped('Parser Error: syntax error at or near "FORM"')).toMatchObject({ code: 'SYNTAX_ERROR', sqlstate: '42601' });
    expect(await mapped("Binder Error: No function matches the given name and argument types 'upper(BIGINT)'.")).toMatchObject({
      code: 'UNDEFINED_FUNCTION',
      sqlstate: '42883',
    });
    expect(await mapped('Catalog Error: Scalar Function with name justify_hours does not exist!')).toMatchObject({
      code: 'UNDEFINED_FUNCTION',
      sqlstate: '42883',
    });
    expect(await mapped('Binder Error: column "status" must appear in the GROUP BY clause or must be part of an aggregate function.')).toMatchObject({
      code: 'QUERY_ERROR',
      sqlstate: '42803',
    });
    expect(await mapped('Binder Error: ORDER term out of range - should be between 1 and 1')).toMatchObject({ sqlstate: '42P10' });
    expect(await mapped('Invalid Input Error: missing ): (')).toMatchObject({ code: 'INVALID_VALUE', sqlstate: '2201B' });
    expect(await mapped('Out of Range Error: cannot take logarithm of zero')).toMatchObject({ sqlstate: '2201E' });
  });

  test('errors of the engine itself get no SQLSTATE', async () => {
    const failed = await mapped('IO Error: could not read the file');
    expect(failed.code).toBe('SERVICE_UNAVAILABLE');
    expect(failed.sqlstate).toBeUndefined();
  });
});
