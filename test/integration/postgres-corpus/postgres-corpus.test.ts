import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createDatabase } from '../../support/backends';
import { translatePostgres } from '../../../src/engine/sql/postgres-dialect';
import { AppError } from '../../../src/errors/app-error';
import type { Canonical } from './canonical';
import { compareResults, ordersRows } from './compare';
import { corpus } from './corpus';
import { closeOxbow, runOxbow } from './oxbow-runner';
import { canonicalOxbow } from './oxbow-values';
import { openPostgresReference, type PostgresReference } from './postgres-runner';
import { unsupported } from './unsupported';

/**
 * Every corpus query runs on a real Postgres 15 and through Oxbow; the results must match after the
 * normalization in canonical.ts. Entries listed in unsupported.ts must fail with their recorded
 * error instead. The pass rate (unsupported entries count as failures) is printed at the end.
 */

async function oxbowRows(sql: string): Promise<Canonical[][]> {
  const result = await runOxbow(sql);
  return result.rows.map((row) => row.map((value, i) => canonicalOxbow(value, result.columns[i]!.type)));
}

/** What a client sees of a failure: the error code and the first line of its message. */
function firstLine(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim();
  return error instanceof AppError ? `${error.code}: ${message}` : message;
}

describe('Postgres comparison corpus', () => {
  let database: Awaited<ReturnType<typeof createDatabase>> | undefined;
  let reference: PostgresReference;
  let passed = 0;
  const reported: string[] = [];

  beforeAll(async () => {
    database = await createDatabase();
    reference = await openPostgresReference(database.url);
  });
  afterAll(async () => {
    await reference?.close();
    await database?.drop();
    await closeOxbow();
    const rate = ((100 * passed) / corpus.length).toFixed(1);
    console.log(`postgres corpus: ${passed}/${corpus.length} passed (${rate}%)`);
    for (const line of reported) console.log(`  unsupported: ${line}`);
  });

  test('the corpus is large, its names unique, and every unsupported entry names a corpus entry', () => {
    const names = corpus.map((entry) => entry.name);
    expect(names.length).toBeGreaterThanOrEqual(150);
    expect(new Set(names).size).toBe(names.length);
    for (const name of Object.keys(unsupported)) expect(names).toContain(name);
  });

  for (const entry of corpus) {
    const expectedError = unsupported[entry.name];
    test(entry.name, async () => {
      // Postgres must accept every entry: the corpus is Postgres SQL.
      const expected = await reference.query(entry.sql);
      if (expectedError !== undefined) {
        const failure = await oxbowRows(entry.sql).then(
          () => 'no error',
          (error: unknown) => firstLine(error),
        );
        expect(failure).toBe(expectedError);
        reported.push(`${entry.name}: ${expectedError}`);
        return;
      }
      const actual = await oxbowRows(entry.sql).catch((error: unknown) => {
        throw new Error(`${firstLine(error)}\ntranslated: ${translatePostgres(entry.sql).sql}`);
      });
      const difference = compareResults(expected, actual, entry.ordered ?? ordersRows(entry.sql));
      if (difference !== null) throw new Error(`${difference}\ntranslated: ${translatePostgres(entry.sql).sql}`);
      passed += 1;
    });
  }
});
