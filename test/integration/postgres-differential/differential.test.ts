import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { differences, type Difference } from './compare';
import { openOxbow, openPostgres } from './engines';
import { knownDifferences } from './known-differences';
import { aggregatesCategory } from './queries/aggregates';
import { arithmetic } from './queries/arithmetic';
import { arrays } from './queries/arrays';
import { casts } from './queries/casts';
import { dates } from './queries/dates';
import { errors } from './queries/errors';
import { grouping } from './queries/grouping';
import { json } from './queries/json';
import { jsonColumns } from './queries/json-columns';
import { queriesCategory } from './queries/queries';
import { rules } from './queries/rules';
import { strings } from './queries/strings';
import { windowsCategory } from './queries/windows';
import { aggregateFunctions } from './queries/aggregate-functions';
import { arrayFunctions } from './queries/array-functions';
import { conditionals } from './queries/conditionals';
import { dateTimes } from './queries/date-times';
import { jsonbFunctions } from './queries/jsonb-functions';
import { nullLogic } from './queries/null-logic';
import { numerics } from './queries/numerics';
import { postgresErrors } from './queries/postgres-errors';
import { reports } from './queries/reports';
import { rollups } from './queries/rollups';
import { setOperations } from './queries/set-operations';
import { subqueries } from './queries/subqueries';
import { textFunctions } from './queries/text-functions';
import { windowFrames } from './queries/window-frames';
import { withQueries } from './queries/with-queries';

/**
 * Analysts' queries run on a real Postgres 15 and through the service's query path, over the same
 * records (pushed into the lake as a user pushes them). Names, values, value types, and errors are
 * compared apart. A query listed in known-differences.ts must differ exactly as listed (the list,
 * and the dialect's README that explains it, stay true); every other query must be identical.
 * Together the two rules make the identical share exactly what the list leaves: the target is 99 %
 * and nothing answered where Postgres raises an error, and the list may only shrink.
 */
/** Each query once: categories share a few (a division by zero is arithmetic and an error). */
const suite = [
  ...new Map(
    [
      ...arithmetic,
      ...casts,
      ...strings,
      ...dates,
      ...aggregatesCategory,
      ...grouping,
      ...windowsCategory,
      ...queriesCategory,
      ...json,
      ...jsonColumns,
      ...arrays,
      ...errors,
      ...rules,
      ...numerics,
      ...textFunctions,
      ...dateTimes,
      ...aggregateFunctions,
      ...windowFrames,
      ...rollups,
      ...withQueries,
      ...setOperations,
      ...subqueries,
      ...conditionals,
      ...nullLogic,
      ...jsonbFunctions,
      ...arrayFunctions,
      ...postgresErrors,
      ...reports,
    ].map((query) => [query.sql, query]),
  ).values(),
];

describe('Postgres differential suite', () => {
  let postgres: Awaited<ReturnType<typeof openPostgres>>;
  let oxbow: Awaited<ReturnType<typeof openOxbow>>;
  const tally = new Map<Difference | 'identical', number>();
  const report: string[] = [];

  beforeAll(async () => {
    [postgres, oxbow] = await Promise.all([openPostgres(), openOxbow()]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([postgres?.close(), oxbow?.close()]);
    const identical = tally.get('identical') ?? 0;
    console.log(`postgres differential: ${identical}/${suite.length} identical (${((100 * identical) / suite.length).toFixed(1)}%)`);
    for (const kind of ['names', 'values', 'types', 'answered', 'refused', 'sqlstate'] as const) console.log(`  ${kind}: ${tally.get(kind) ?? 0}`);
    for (const line of report) console.log(line);
  });

  test('the suite is large and its queries unique; every known difference names one of them', () => {
    expect(suite.length).toBeGreaterThanOrEqual(2400);
    expect(new Set(suite.map((query) => query.sql)).size).toBe(suite.length);
    for (const sql of Object.keys(knownDifferences)) expect(suite.map((query) => query.sql)).toContain(sql);
  });

  for (const { category, sql } of suite) {
    test(`${category}: ${sql}`, async () => {
      const [expected, actual] = [await postgres.run(sql), await oxbow.run(sql)];
      const { found, detail } = differences(sql, expected, actual);
      if (found.length === 0) tally.set('identical', (tally.get('identical') ?? 0) + 1);
      for (const kind of found) tally.set(kind, (tally.get(kind) ?? 0) + 1);
      if (found.length > 0) report.push(`  [${found.join(',')}] ${category}: ${sql}\n    ${detail.replaceAll('\n', '\n    ')}`);
      const known = knownDifferences[sql];
      expect({ sql, found, detail: found.length === (known?.differs.length ?? 0) ? '' : detail }).toEqual({
        sql,
        found: [...(known?.differs ?? [])],
        detail: '',
      });
    });
  }
});
