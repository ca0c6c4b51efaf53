import { describe, expect, test } from 'bun:test';
import type { DuckDBListValue } from '@duckdb/node-api';
import { duckdbMacroDefinitions } from '../../../src/engine/sql/postgres-dialect/duckdb-macros';
import { definitionShape } from '../../../src/engine/sql/postgres-dialect/macro-expansion';
import { memoryDuckDB } from '../../support/memory-duckdb';

describe("DuckDB's own macros that copy an argument", () => {
  const connection = memoryDuckDB();

  test('the list the translation sizes them by is that of the DuckDB the service runs, as it defines them', async () => {
    const reader = await connection().runAndReadAll(
      `SELECT function_name, parameters, macro_definition FROM duckdb_functions() WHERE function_type = 'macro' ORDER BY function_name, len(parameters)`,
    );
    const overloads = new Map<string, string[]>();
    for (const [name, parameters, body] of reader.getRows() as [string, DuckDBListValue, string][]) {
      overloads.set(name, [...(overloads.get(name) ?? []), `(${parameters.items.join(', ')}) AS ${body}`]);
    }
    const definitions = [...overloads].map(([name, bodies]) => `${name}${bodies.join(', ')}`);
    const copying = definitions.filter((definition) => definitionShape(definition).copies.some((copies) => copies > 1));
    // nullif, split_part and array_to_string among them; the dialect's macros call the last two.
    expect(copying.length).toBeGreaterThanOrEqual(10);
    expect([...duckdbMacroDefinitions]).toEqual(copying);
  });
});
