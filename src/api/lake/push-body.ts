import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { ValidationError } from 'elysia';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { RecordsText } from '../../engine/write/records-source';
import type { PushRequest, PushTarget } from '../../lake/push-service';
import { jsonArrayMemberSpanUnparsed } from '../request-body/json-array-span';
import { keepableParsedAt } from '../request-body/json-input';
import { readRecordsInParallel } from '../request-body/parallel-records';
import { lakeModels as m } from './model';

// The route takes two kinds of body, so Elysia cannot check the JSON one itself: checked here, with
// the same schema and the same 422 as any other route's.
const pushRequestCheck = TypeCompiler.Compile(m.PushRequest);

export function checkedPushRequest(body: unknown): PushRequest {
  if (!pushRequestCheck.Check(body)) throw new ValidationError('body', pushRequestCheck, body);
  return body;
}

/**
 * Thrown by the records of a large push (see splitLargePush) that do not read on two threads: the
 * write they were read for has written nothing, and the body is to be read whole.
 */
export class ReadWhole extends Error {
  constructor() {
    super('The records are read whole');
  }
}

/**
 * A large push body taken apart without reading its records: the members around `records` parsed
 * and checked as any body's, the records left as text, read on two threads when the write asks for
 * them (see readRecordsInParallel), throwing ReadWhole should they not read so. Undefined when the
 * body is not laid out plainly; the route then reads it whole, which refuses what is wrong with it
 * with the same errors as ever.
 */
export function splitLargePush(bytes: Uint8Array): { target: PushTarget; records: RecordsText } | undefined {
  if (!isUtf8(bytes)) return undefined;
  const span = jsonArrayMemberSpanUnparsed(bytes, 'records');
  if (!span) return undefined;
  const around = Buffer.concat([bytes.subarray(0, span.start), Buffer.from('[]'), bytes.subarray(span.end + 1)]).toString('utf8');
  let members: unknown;
  try {
    members = JSON.parse(around);
  } catch {
    return undefined;
  }
  if (!keepableParsedAt(members, 0, around.includes('\\u')) || !emptyRecords(members)) return undefined;
  // The records are checked as they are read; one stands in for them in the check of the rest.
  const standingIn: unknown = { ...members, records: [{}] };
  if (!pushRequestCheck.Check(standingIn)) return undefined;
  const { records: _standIn, ...target } = standingIn;
  const text = bytes.subarray(span.start, span.end + 1);
  const read = async () => {
    const records = await readRecordsInParallel(text);
    // Records without a single field are refused by the body read whole, which says so.
    if (!records || records.inference.fieldCount === 0) throw new ReadWhole();
    return records;
  };
  return { target, records: { text, read } };
}

function emptyRecords(members: unknown): members is { records: [] } {
  return (
    typeof members === 'object' &&
    members !== null &&
    Array.isArray((members as { records?: unknown }).records) &&
    (members as { records: unknown[] }).records.length === 0
  );
}

/** SHA-256 of a body as received, in hex. */
export function bodyDigest(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
