import { afterAll, beforeAll } from 'bun:test';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

/** A connection to an in-memory DuckDB for the enclosing describe block: opened before its tests, closed after them. */
export function memoryDuckDB(): () => DuckDBConnection {
  let instance: DuckDBInstance | undefined;
  let connection: DuckDBConnection | undefined;
  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:');
    connection = await instance.connect();
  });
  afterAll(() => {
    connection?.closeSync();
    instance?.closeSync();
  });
  return () => {
    if (!connection) throw new Error('the DuckDB connection is open only while the tests run');
    return connection;
  };
}
