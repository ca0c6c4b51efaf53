import { duckdbErrorOf } from '../duckdb/duckdb-error';
import { ColumnInference, type InferredColumn } from './infer-schema';
import type { WritePlan } from './plan-write';
import { checkKeyPresence } from './record-checks';
import { stageRecords } from './stage-records';
import type { WriteSource } from './write-source';

/**
 * Records held in memory (already checked to be objects): inferred in JavaScript, staged as a JSON
 * file. `text`, when given, is the JSON array the records were parsed from, exactly as received: a
 * write whose values read the same from it as from the records written out again stages it as it
 * is, which spares writing the records out (a quarter of a large push's time in JavaScript). Should
 * DuckDB's reader refuse it (a record naming a field twice, which JSON.parse lets the last win), the
 * write is made again from the records themselves. `members` splits the records into the writes of a
 * group (see stageRecords).
 */
export function recordsSource(records: Record<string, unknown>[], text?: Uint8Array, members?: number[]): WriteSource {
  let inference: ColumnInference | undefined;
  let inferred: InferredColumn[] | undefined;
  let fromValues = text === undefined;
  let stagedText = false;
  return {
    columns(_connection, again) {
      fromValues ||= again;
      if (!inference) {
        inference = new ColumnInference();
        records.forEach((record, index) => inference!.add(record, index));
        inferred = inference.columns();
      }
      return Promise.resolve(inferred!);
    },
    checkKey: (primaryKey) => checkKeyPresence(records, primaryKey),
    stage(connection, stagingDir, stagingName, plan, primaryKey) {
      stagedText = !fromValues && primaryKey.length === 0 && textReadsAsValues(plan, inference!);
      return stageRecords(connection, stagingDir, stagingName, plan, stagedText ? text! : records, primaryKey, members);
    },
    // The staged JSON was written from parsed values: an error reading it back is the engine's, not
    // the records'. The text as received may hold what the parsed values do not (a field twice).
    rejection(error) {
      const type = duckdbErrorOf(error)?.type;
      return stagedText && (type === 'Invalid Input' || type === 'Conversion') ? { readAgainThoroughly: true } : undefined;
    },
  };
}

/** The DuckDB types whose values read the same from any JSON spelling of the same parsed value. */
const spellingFreeTypes = new Set(['BIGINT', 'DOUBLE', 'BOOLEAN', 'DATE', 'TIMESTAMPTZ', 'TIMESTAMP WITH TIME ZONE', 'VARCHAR']);

/**
 * Whether DuckDB's reader stores the same values from the received text as from JSON.stringify of the
 * parsed records. Strings read the same however they were escaped, numbers as the same double (an
 * integer column's as the same integer), booleans alike. What differs is a number's spelling where
 * it is kept as text (`1.50` in a column of text, JSON columns keep their values' text as sent), and
 * `-0.0`, which the text keeps negative and JSON.stringify writes as 0; and any type but the push's own.
 */
function textReadsAsValues(plan: WritePlan, inference: ColumnInference): boolean {
  if (inference.sawNegativeZero) return false;
  return plan.incoming.every(({ field, column }) => spellingFreeTypes.has(column.type) && (column.type !== 'VARCHAR' || inference.onlyText(field)));
}
