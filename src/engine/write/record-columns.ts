import { BOOLEAN, DOUBLE, VARCHAR, type DuckDBType } from '@duckdb/node-api';
import { sqlIdentifier } from '../sql-literals';
import type { WritePlan } from './plan-write';

export type StagedValue = number | boolean | string | null;

/** One incoming field as a column of typed values, and how its staged values become the table's type. */
export interface RecordColumn {
  /** The staging table's column (c0, c1…): field names need no quoting there. */
  name: string;
  /** The type the values are handed to DuckDB with. */
  stagedType: DuckDBType;
  /** SQL that turns the staged column into the table column's type. */
  value: string;
  /** The same, named as the table column. */
  select: string;
  values: StagedValue[];
}

/**
 * How each column type a push infers is staged: which JavaScript values it takes, the DuckDB type they
 * are handed over as, and the cast to the table's type. Integers go as DOUBLE (a write's integers are
 * safe integers, exact in a double) because DuckDB's BIGINT vector takes only bigints, and converting
 * each number costs more than the cast. Dates and timestamps go as their text and are cast by DuckDB,
 * the same conversion its JSON reader applies.
 */
const stagings: Record<string, { accepts: (value: unknown) => boolean; stagedType: DuckDBType; cast?: string }> = {
  BIGINT: { accepts: (value) => Number.isSafeInteger(value), stagedType: DOUBLE, cast: 'BIGINT' },
  DOUBLE: { accepts: (value) => typeof value === 'number', stagedType: DOUBLE },
  BOOLEAN: { accepts: (value) => typeof value === 'boolean', stagedType: BOOLEAN },
  VARCHAR: { accepts: (value) => typeof value === 'string', stagedType: VARCHAR },
  DATE: { accepts: (value) => typeof value === 'string', stagedType: VARCHAR, cast: 'DATE' },
  TIMESTAMPTZ: { accepts: (value) => typeof value === 'string', stagedType: VARCHAR, cast: 'TIMESTAMPTZ' },
  'TIMESTAMP WITH TIME ZONE': { accepts: (value) => typeof value === 'string', stagedType: VARCHAR, cast: 'TIMESTAMPTZ' },
};

/**
 * The records as one column per incoming field, read in one pass per field; undefined when a field's
 * values cannot be handed over typed (JSON values, a text column that also receives numbers, a
 * column of another type made outside pushes): such a write is staged as JSON text instead.
 */
export function recordColumns(plan: WritePlan, records: Record<string, unknown>[]): RecordColumn[] | undefined {
  const columns: RecordColumn[] = [];
  for (const [index, { field, column }] of plan.incoming.entries()) {
    const staging = stagings[column.type.toUpperCase()];
    if (!staging) return undefined;
    const values = new Array<StagedValue>(records.length);
    for (let row = 0; row < records.length; row++) {
      const value = records[row]![field];
      if (value === undefined || value === null) values[row] = null;
      else if (staging.accepts(value)) values[row] = value as StagedValue;
      // Also a name Object.prototype answers for a record without the field (`constructor`).
      else return undefined;
    }
    const name = `c${index}`;
    const value = staging.cast ? `CAST(${name} AS ${staging.cast})` : name;
    columns.push({ name, stagedType: staging.stagedType, value, select: `${value} AS ${sqlIdentifier(column.name)}`, values });
  }
  return columns;
}
