import { afterAll, describe, expect, test } from 'bun:test';
import { translatePostgres, translatePostgresStatement } from '../../../src/engine/sql/postgres-dialect';
import { QueryAnalyzer } from '../../../src/engine/sql/query-analyzer';
import { SqlParser } from '../../../src/engine/sql/sql-parser';

describe('query analysis', () => {
  const parser = new SqlParser({ connections: 1 });
  afterAll(() => parser.close());

  test('reads what the text says: translation, tables, columns, time travel', async () => {
    const analyzer = new QueryAnalyzer(parser, translatePostgres);
    const analysis = await analyzer.analyze(
      'w1',
      "WITH recent AS (SELECT id, at FROM app.events FOR SYSTEM_TIME AS OF '2026-01-01') SELECT r.id FROM recent r JOIN app.users u ON u.id = r.id",
    );
    expect(analysis.sql).toContain('AT (TIMESTAMP =>');
    expect(analysis.rewrites.length).toBeGreaterThan(0);
    expect(analysis.wantedTables).toEqual(['app.events', 'app.users']);
    expect(analysis.timeTravel).toBe(true);
    expect(analysis.columns).toEqual({ all: false, names: new Set(['id', 'at']) });
  });

  test('a text is analysed once per workspace; other workspaces analyse their own', async () => {
    const analyzer = new QueryAnalyzer(parser, translatePostgres);
    const first = await analyzer.analyze('w1', 'SELECT 1 AS one');
    expect(await analyzer.analyze('w1', 'SELECT 1 AS one')).toBe(first);
    const elsewhere = await analyzer.analyze('w2', 'SELECT 1 AS one');
    expect(elsewhere).not.toBe(first);
    expect(elsewhere).toEqual(first);
  });

  test('the least recently used analysis goes first; long texts are not kept', async () => {
    const analyzer = new QueryAnalyzer(parser, translatePostgres, { capacity: 2, maxCachedLength: 40 });
    const a = await analyzer.analyze('w', 'SELECT 1');
    const b = await analyzer.analyze('w', 'SELECT 2');
    expect(await analyzer.analyze('w', 'SELECT 1')).toBe(a);
    await analyzer.analyze('w', 'SELECT 3');
    expect(await analyzer.analyze('w', 'SELECT 1')).toBe(a);
    expect(await analyzer.analyze('w', 'SELECT 2')).not.toBe(b);
    const long = `SELECT ${'1 + '.repeat(20)}1`;
    expect(await analyzer.analyze('w', long)).not.toBe(await analyzer.analyze('w', long));
  });

  test("a text read with its tables' JSON columns is kept apart, under the names it was read with", async () => {
    const analyzer = new QueryAnalyzer(parser, translatePostgresStatement);
    const sql = 'SELECT id, profile::text FROM shop.customers';
    const written = await analyzer.analyze('w', sql);
    expect(written.jsonbReferences).toEqual(['profile']);
    expect(written.sql).not.toContain('pgx_jsonb_out');
    const typed = await analyzer.analyze('w', sql, new Set(['profile']));
    expect(typed.sql).toContain('pgx_jsonb_out(profile::JSON)');
    expect(typed.wantedTables).toEqual(written.wantedTables);
    expect(await analyzer.analyze('w', sql, new Set(['profile']))).toBe(typed);
    expect(await analyzer.analyze('w', sql)).toBe(written);
    // Other names (a column retyped, another table's JSON column) make another analysis.
    expect(await analyzer.analyze('w', sql, new Set(['profile', 'meta']))).not.toBe(typed);
    expect(await analyzer.analyze('w', sql, new Set())).toBe(written);
  });

  test('a text that does not parse is refused every time, and never kept', async () => {
    const analyzer = new QueryAnalyzer(parser, translatePostgres);
    for (let i = 0; i < 2; i++) expect(await analyzer.analyze('w', 'SELEC 1').catch((error: unknown) => error)).toMatchObject({ code: 'SYNTAX_ERROR' });
  });
});
