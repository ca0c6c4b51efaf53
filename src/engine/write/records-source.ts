import { inferColumns, type InferredColumn } from './infer-schema';
import { checkKeyPresence } from './record-checks';
import { stageRecords } from './stage-records';
import type { WriteSource } from './write-source';

/** Records held in memory (already checked to be objects): inferred in JavaScript, staged as a JSON file. */
export function recordsSource(records: Record<string, unknown>[]): WriteSource {
  let inferred: InferredColumn[] | undefined;
  return {
    columns: () => Promise.resolve((inferred ??= inferColumns(records))),
    checkKey: (primaryKey) => checkKeyPresence(records, primaryKey),
    stage: (connection, stagingDir, stagingName, plan, primaryKey) => stageRecords(connection, stagingDir, stagingName, plan, records, primaryKey),
    // The staged JSON was written from parsed values: an error reading it back is the engine's, not the records'.
    rejection: () => undefined,
  };
}
