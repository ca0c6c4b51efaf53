import { rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ColumnInference } from '../../engine/write/infer-schema';
import { readRecordsPart, type RecordsPartRead } from './records-part';

/** A part for the reading thread (written to `file` as it is read), and its answer. */
export interface PartRequest {
  id: number;
  bytes: Uint8Array<ArrayBuffer>;
  file: string;
}
export interface PartReply {
  id: number;
  /** Undefined when the part does not read cleanly or could not be written. */
  read: RecordsPartRead | undefined;
}

/** The records of a large body, read and inferred without being kept as values. */
export interface RecordsRead {
  count: number;
  inference: ColumnInference;
  /** The two consecutive JSON arrays they were read from, a file each, together the records' text. */
  files: string[];
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
 * Each half is written to a file in `folder` while it is read (the second by its own thread), for
 * DuckDB's JSON reader to read side by side; a write of 18 MB waits on the disk's write-back now and
 * then, which the reading hides.
 *
 * Undefined when the records are not read so (no boundary, a part that does not read cleanly, parts
 * whose inference cannot be merged exactly), and no file is left: the caller reads the body whole, as
 * before. A split at a place that is no boundary between records (inside a string, or between two
 * objects nested in a record) leaves a part that is no JSON array of objects, so a wrong split is
 * never taken.
 */
export async function readRecordsInParallel(span: Uint8Array, folder: string): Promise<RecordsRead | undefined> {
  const middle = recordBoundaryNear(span, span.length >> 1);
  if (middle === undefined) return undefined;
  const name = `records_${Bun.randomUUIDv7().replaceAll('-', '')}`;
  const files = [join(folder, `${name}_0.json`), join(folder, `${name}_1.json`)];
  const second = new Uint8Array(span.length - middle.next + 1);
  second[0] = openBracket;
  second.set(span.subarray(middle.next), 1);
  const secondRead = partReader.read(second, files[1]!);
  const first = new Uint8Array(middle.end + 2);
  first.set(span.subarray(0, middle.end + 1));
  first[middle.end + 1] = closeBracket;
  const firstWritten = writeFile(files[0]!, first).then(
    () => true,
    () => false,
  );
  let firstRead: RecordsPartRead | undefined;
  try {
    firstRead = readRecordsPart(first);
  } catch {
    firstRead = undefined;
  }
  const [secondPart, written] = await Promise.all([secondRead, firstWritten]);
  const inference = firstRead && secondPart && written ? ColumnInference.merged([firstRead.inference, secondPart.inference]) : undefined;
  if (!inference) {
    for (const file of files) rmSync(file, { force: true });
    return undefined;
  }
  return { count: firstRead!.count + secondPart!.count, inference, files };
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
  private readonly waiting = new Map<number, (read: RecordsPartRead | undefined) => void>();

  /** The part read on the reading thread, and written to `file` (undefined when it does not read cleanly). */
  read(bytes: Uint8Array<ArrayBuffer>, file: string): Promise<RecordsPartRead | undefined> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      worker.postMessage({ id, bytes, file } satisfies PartRequest, [bytes.buffer]);
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./records-part-worker.ts', import.meta.url));
    worker.unref();
    worker.addEventListener('message', (event: MessageEvent<PartReply>) => {
      this.waiting.get(event.data.id)?.(event.data.read);
      this.waiting.delete(event.data.id);
    });
    worker.addEventListener('error', () => {
      if (this.worker === worker) this.worker = undefined;
      worker.terminate();
      for (const resolve of this.waiting.values()) resolve(undefined);
      this.waiting.clear();
    });
    this.worker = worker;
    return worker;
  }
}

const partReader = new PartReader();
