import { duckdbErrorOf } from '../duckdb/duckdb-error';
import { ColumnInference, type InferredColumn } from './infer-schema';
import type { WritePlan } from './plan-write';
import { checkKeyPresence } from './record-checks';
import { stageRecords } from './stage-records';
import type { WriteSource } from './write-source';

/**
 * Records that arrive as one JSON array, read (a large push's, on two threads) when the write asks
 * for their columns, under the table's lock, as records in memory are inferred. Read, they are known
 * to be objects whose values the stores keep, with their columns inferred; their values are parsed
 * from the text only if the write needs them (see recordsTextSource).
 */
export interface RecordsText {
  /** The JSON array as received. */
  text: Uint8Array;
  /**
   * Reads the records; throws when they cannot be read so (the caller then writes them otherwise).
   * `parts`: the text split into consecutive JSON arrays, which DuckDB's reader reads side by side.
   */
  read(): Promise<{ inference: ColumnInference; parts: Uint8Array[] }>;
}

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
  return sourceOf({ values: () => records, texts: text && [text], members });
}

/**
 * recordsSource for records read from their text (see RecordsText): staged from the text when it
 * reads as the values would, and parsed into values only for what needs them (a key to check or
 * upsert on, a text DuckDB's reader refuses). A key is checked once they are read (see writeRecords).
 */
export function recordsTextSource(records: RecordsText): WriteSource {
  let inner: WriteSource | undefined;
  let reading: Promise<WriteSource> | undefined;
  const values = () =>
    JSON.parse(Buffer.from(records.text.buffer, records.text.byteOffset, records.text.byteLength).toString('utf8')) as Record<string, unknown>[];
  const ready = () =>
    (reading ??= records.read().then(({ inference, parts }) => {
      let parsed: Record<string, unknown>[] | undefined;
      inner = sourceOf({ values: () => (parsed ??= values()), texts: parts, inference });
      return inner;
    }));
  return {
    columns: async (connection, again) => (await ready()).columns(connection, again),
    checkKey: (primaryKey, columns) => inner?.checkKey(primaryKey, columns),
    stage: (...args) => inner!.stage(...args),
    rejection: (error, thorough) => inner?.rejection(error, thorough),
  };
}

interface RecordsInput {
  values(): Record<string, unknown>[];
  /** The records' JSON text as received, in one or more consecutive arrays. */
  texts?: Uint8Array[];
  /** Known already (see RecordsText); otherwise inferred from the values. */
  inference?: ColumnInference;
  members?: number[];
}

function sourceOf(input: RecordsInput): WriteSource {
  let inference = input.inference;
  let inferred: InferredColumn[] | undefined;
  let fromValues = input.texts === undefined;
  let stagedText = false;
  const inferenceOf = () => {
    if (!inference) {
      inference = new ColumnInference();
      input.values().forEach((record, index) => inference!.add(record, index));
    }
    return inference;
  };
  return {
    columns(_connection, again) {
      fromValues ||= again;
      inferred ??= inferenceOf().columns();
      return Promise.resolve(inferred);
    },
    checkKey: (primaryKey) => {
      if (primaryKey.length > 0) checkKeyPresence(input.values(), primaryKey);
    },
    stage(connection, stagingDir, stagingName, plan, primaryKey) {
      stagedText = !fromValues && primaryKey.length === 0 && textReadsAsValues(plan, inferenceOf());
      return stageRecords(connection, stagingDir, stagingName, plan, stagedText ? input.texts! : input.values(), primaryKey, input.members);
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
