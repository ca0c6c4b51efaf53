import { isUtf8 } from 'node:buffer';
import { ColumnInference, type InferenceState } from '../../engine/write/infer-schema';
import { keepableParsedAt } from './json-input';

/** A part of a push's records that reads cleanly: how many records, and what inference found in them. */
export interface RecordsPartRead {
  count: number;
  inference: InferenceState;
}

/**
 * Reads one part of a push's `records` (a JSON array of its own, see parallel-records.ts) as the
 * whole body would be read: parsed, every value checked as the body's check would (the array one
 * level into the body), every record an object, and the columns inferred. Undefined at the first
 * thing that is not so: the body is then read whole, in one run, which reports each problem where
 * it is.
 */
export function readRecordsPart(bytes: Uint8Array): RecordsPartRead | undefined {
  if (!isUtf8(bytes)) return undefined;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  let records: unknown;
  try {
    records = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(records) || !keepableParsedAt(records, 1, text.includes('\\u'))) return undefined;
  const inference = new ColumnInference();
  for (let index = 0; index < records.length; index++) {
    const record: unknown = records[index];
    if (record === null || typeof record !== 'object' || Array.isArray(record)) return undefined;
    inference.add(record as Record<string, unknown>, index);
  }
  return { count: records.length, inference: inference.state() };
}
