import { ColumnInference } from '../../engine/write/infer-schema';
import { readRecordsPart, type RecordsPartRead } from './records-part';

/** A part for the reading thread, and its answer. */
export interface PartRequest {
  id: number;
  bytes: Uint8Array<ArrayBuffer>;
}
export interface PartReply {
  id: number;
  read: RecordsPartRead | undefined;
  /** The part's bytes, handed back. */
  bytes: Uint8Array;
}

/** The records of a large body, read and inferred without being kept as values. */
export interface RecordsRead {
  count: number;
  inference: ColumnInference;
  /** The two consecutive JSON arrays they were read from, together the records' text. */
  parts: Uint8Array[];
}

const openBracket = 0x5b;
const closeBracket = 0x5d;
const quote = 0x22;
/** How far past the middle a record boundary is looked for: records are far smaller than this. */
const maxBoundarySearch = 1024 * 1024;

/**
 * Reads a large push's `records` (the JSON array as received) on two threads: split at a boundary
 * between two records near the middle, the second half read on a thread of its own while this one
 * reads the first, and the two inferences merged. JSON.parse, the body's check and inference are most
 * of the time a large push spends in JavaScript, and the machine's other core is idle meanwhile.
 *
 * Undefined when the records are not read so (no boundary, a part that does not read cleanly, parts
 * whose inference cannot be merged exactly): the caller reads the body whole, as before. A split at a
 * place that is no boundary between records (inside a string, or between two objects nested in a
 * record) leaves a part that is no JSON array of objects, so a wrong split is never taken.
 */
export async function readRecordsInParallel(span: Uint8Array): Promise<RecordsRead | undefined> {
  const middle = recordBoundaryNear(span, span.length >> 1);
  if (middle === undefined) return undefined;
  const second = new Uint8Array(span.length - middle.next + 1);
  second[0] = openBracket;
  second.set(span.subarray(middle.next), 1);
  const secondRead = partReader.read(second);
  const first = new Uint8Array(middle.end + 2);
  first.set(span.subarray(0, middle.end + 1));
  first[middle.end + 1] = closeBracket;
  const firstRead = readRecordsPart(first);
  const secondPart = await secondRead;
  if (!firstRead || !secondPart.read) return undefined;
  const inference = ColumnInference.merged([firstRead.inference, secondPart.read.inference]);
  return inference ? { count: firstRead.count + secondPart.read.count, inference, parts: [first, secondPart.bytes] } : undefined;
}

/**
 * Where to split the records near `from`: a `}` followed by a comma and the `{` of an object whose
 * first member is named as the first record's is (blanks aside): `end` is the `}`'s index, `next` the
 * `{`'s. Such a `{"` cannot stand inside a text, where its quote would be escaped, and objects nested
 * in records seldom begin with the records' own first name (a split between two of them would leave
 * parts that do not read, and the records would be read whole). Without that name, the first such
 * `}` followed by a comma and an object.
 */
function recordBoundaryNear(span: Uint8Array, from: number): { end: number; next: number } | undefined {
  const firstName = firstMemberName(span);
  const last = Math.min(span.length - 1, from + maxBoundarySearch);
  let anyObject: { end: number; next: number } | undefined;
  for (let at = span.indexOf(0x7d, from); at !== -1 && at < last; at = span.indexOf(0x7d, at + 1)) {
    let next = skipBlanks(span, at + 1);
    if (span[next] !== 0x2c) continue;
    next = skipBlanks(span, next + 1);
    if (span[next] !== 0x7b) continue;
    const name = skipBlanks(span, next + 1);
    if (span[name] !== quote) continue;
    if (firstName === undefined || sameBytesAt(span, name, firstName)) return { end: at, next };
    anyObject ??= { end: at, next };
  }
  return anyObject;
}

/** The first record's first member name, with its quotes (`"id"`); undefined when the records do not start so plainly. */
function firstMemberName(span: Uint8Array): Uint8Array | undefined {
  let at = skipBlanks(span, 1);
  if (span[at] !== 0x7b) return undefined;
  at = skipBlanks(span, at + 1);
  if (span[at] !== quote) return undefined;
  for (let end = at + 1; end < Math.min(span.length, at + 256); end++) {
    if (span[end] === 0x5c) return undefined;
    if (span[end] === quote) return span.subarray(at, end + 1);
  }
  return undefined;
}

function sameBytesAt(bytes: Uint8Array, at: number, expected: Uint8Array): boolean {
  for (let i = 0; i < expected.length; i++) if (bytes[at + i] !== expected[i]) return false;
  return true;
}

function skipBlanks(bytes: Uint8Array, at: number): number {
  while (at < bytes.length && (bytes[at] === 0x20 || bytes[at] === 0x0a || bytes[at] === 0x0d || bytes[at] === 0x09)) at++;
  return at;
}

/**
 * The thread reading second parts, started at the first large push and kept for the next ones (it
 * never holds the process open). Should it fail, the pushes it was reading are read whole instead,
 * and the next one starts a new thread.
 */
class PartReader {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly waiting = new Map<number, (reply: Omit<PartReply, 'id'>) => void>();

  /** The part read on the reading thread (undefined when it does not read cleanly), and its bytes back. */
  read(bytes: Uint8Array<ArrayBuffer>): Promise<Omit<PartReply, 'id'>> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      worker.postMessage({ id, bytes } satisfies PartRequest, [bytes.buffer]);
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./records-part-worker.ts', import.meta.url));
    worker.unref();
    worker.addEventListener('message', (event: MessageEvent<PartReply>) => {
      this.waiting.get(event.data.id)?.(event.data);
      this.waiting.delete(event.data.id);
    });
    worker.addEventListener('error', () => {
      if (this.worker === worker) this.worker = undefined;
      worker.terminate();
      for (const resolve of this.waiting.values()) resolve({ read: undefined, bytes: new Uint8Array() });
      this.waiting.clear();
    });
    this.worker = worker;
    return worker;
  }
}

const partReader = new PartReader();
