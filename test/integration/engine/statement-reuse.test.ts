import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import type { DuckDBInstance } from '@duckdb/node-api';
import { createTestBackend, type TestBackend } from '../../support/backends';
import { createDuckDBInstance } from '../../../src/engine/duckdb/create-instance';
import { EngineConnection } from '../../../src/engine/duckdb/engine-connection';
import { PreparedStatements } from '../../../src/engine/duckdb/prepared-statements';
import { sqlString } from '../../../src/engine/sql-literals';

describe('prepared statements kept for texts run again', () => {
  let env: TestBackend;
  let instance: DuckDBInstance;
  let connection: EngineConnection;
  const reuse = { reuse: true };

  beforeAll(async () => {
    env = await createTestBackend('local');
    instance = await createDuckDBInstance({ extensionDir: env.config.duckdb.extensionDir });
    connection = new EngineConnection(await instance.connect());
  });
  afterAll(async () => {
    connection.closeSync();
    instance.closeSync();
    await env.cleanup();
  });

  /** How a run failed: awaited, so the connection is free again before the next statement. */
  const failureOf = (run: Promise<unknown>) =>
    run.then(
      () => 'no failure',
      (error: unknown) => String(error),
    );
  const writeRows = (file: string, rows: number) => connection.run(`COPY (SELECT range AS id FROM range(${rows})) TO ${sqlString(file)} (FORMAT parquet)`);

  test('a kept statement reads the files as they are when it runs again, not as they were when it was prepared', async () => {
    const file = join(env.config.dataDir, 'kept.parquet');
    const count = `SELECT count(*) FROM read_parquet(${sqlString(file)})`;
    await writeRows(file, 3);
    expect(Number((await connection.read(count, undefined, undefined, reuse)).scalar())).toBe(3);
    await writeRows(file, 5);
    expect(Number((await connection.read(count, undefined, undefined, reuse)).scalar())).toBe(5);
  });

  test('a kept statement binds the values of each run, and none when a run gives none', async () => {
    const echo = 'SELECT $value::INTEGER + 1';
    expect(Number((await connection.read(echo, { value: 1 }, undefined, reuse)).scalar())).toBe(2);
    expect(Number((await connection.read(echo, { value: 41 }, undefined, reuse)).scalar())).toBe(42);
    // Left bound from the run before, the value would answer 42; a fresh statement misses it.
    expect(await failureOf(connection.read(echo, undefined, undefined, reuse))).toMatch(/value/);
    expect(Number((await connection.read(echo, { value: 9 }, undefined, reuse)).scalar())).toBe(10);
  });

  test('a table dropped since the last run fails the run with the catalog error, and the text prepares again once it is back', async () => {
    await connection.run('CREATE TABLE kept_table AS SELECT 1 AS id');
    const read = 'SELECT count(*) FROM kept_table';
    expect(Number((await connection.read(read, undefined, undefined, reuse)).scalar())).toBe(1);
    await connection.run('DROP TABLE kept_table');
    expect(await failureOf(connection.read(read, undefined, undefined, reuse))).toMatch(/kept_table/);
    await connection.run('CREATE TABLE kept_table AS SELECT * FROM range(4) t(id)');
    expect(Number((await connection.read(read, undefined, undefined, reuse)).scalar())).toBe(4);
  });

  test('a run stopped at its deadline leaves the connection and the text usable', async () => {
    const long = 'SELECT count(*) FROM range(100000000000) a(x) WHERE x % 7 = 3';
    expect(await failureOf(connection.read(long, undefined, { deadline: performance.now() + 100 }, reuse))).toMatch(/nterrupt/);
    await connection.idle();
    const short = 'SELECT count(*) FROM range(1000) a(x) WHERE x % 7 = 3';
    expect(Number((await connection.read(short, undefined, { deadline: performance.now() + 10_000 }, reuse)).scalar())).toBe(143);
  });

  test('a kept statement that runs far longer than last time is awaited to its end, or to its deadline', async () => {
    const count = 'SELECT count(*) FROM range($rows::BIGINT) a(x) WHERE x % 7 = 3';
    expect(Number((await connection.read(count, { rows: 1_000 }, undefined, reuse)).scalar())).toBe(143);
    expect(Number((await connection.read(count, { rows: 30_000_000 }, undefined, reuse)).scalar())).toBe(4_285_714);
    expect(await failureOf(connection.read(count, { rows: 100_000_000_000 }, { deadline: performance.now() + 100 }, reuse))).toMatch(/nterrupt/);
    await connection.idle();
  });

  test('transactions of reads begin and end with kept statements, one after the other', async () => {
    for (let run = 0; run < 3; run++) {
      const inside = await connection.readTransaction(async () =>
        Number((await connection.read('SELECT count(*) FROM range(10)', undefined, undefined, reuse)).scalar()),
      );
      expect(inside).toBe(10);
    }
    // No transaction is left open: a statement that needs none runs as before.
    await connection.run('CREATE TABLE after_reads AS SELECT 1 AS id');
  });

  test('past its capacity the oldest kept statement is destroyed and the rest stay', async () => {
    const kept = new PreparedStatements(2);
    const texts = ['SELECT 1', 'SELECT 2', 'SELECT 3'];
    for (const [index, text] of texts.entries()) kept.keep(text, { statement: await connection.prepare(text), lastRunMs: index });
    expect(kept.take('SELECT 1')).toBeUndefined();
    const second = kept.take('SELECT 2');
    const third = kept.take('SELECT 3');
    expect([second?.statement.columnName(0), second?.lastRunMs]).toEqual(['2', 1]);
    expect([third?.statement.columnName(0), third?.lastRunMs]).toEqual(['3', 2]);
    // Taken out, a statement is no longer kept: a run that fails does not leave it behind.
    expect(kept.take('SELECT 3')).toBeUndefined();
    second?.statement.destroySync();
    third?.statement.destroySync();
  });
});
