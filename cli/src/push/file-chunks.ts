export type PushFormat = 'ndjson' | 'csv' | 'parquet';

export const mediaTypes: Record<PushFormat, string> = {
  ndjson: 'application/x-ndjson',
  csv: 'text/csv',
  parquet: 'application/vnd.apache.parquet',
};

export interface Chunk {
  index: number;
  /**
   * The records of the chunk as the service takes them (a CSV chunk starts with the header row). A
   * Parquet file is the file itself, streamed from disk as it is sent.
   */
  body: Uint8Array | Blob;
  /** The body is gzip already (a `.parquet.gz` file, sent as it is). */
  gzipped: boolean;
  /** Records in the chunk (undefined for a Parquet file, sent whole). */
  rows: number | undefined;
  /** Bytes of the file read so far, for the progress line. */
  readBytes: number;
}

export interface ChunkLimits {
  rows: number;
  bytes: number;
}

/** The format a file's name says (`.ndjson`, `.jsonl`, `.csv`, `.parquet`, each optionally `.gz`). */
export function formatOfName(path: string): { format: PushFormat | undefined; gzip: boolean } {
  const gzip = /\.gz$/i.test(path);
  const name = path.replace(/\.gz$/i, '').toLowerCase();
  if (name.endsWith('.ndjson') || name.endsWith('.jsonl')) return { format: 'ndjson', gzip };
  if (name.endsWith('.csv')) return { format: 'csv', gzip };
  if (name.endsWith('.parquet') || name.endsWith('.pq')) return { format: 'parquet', gzip };
  return { format: undefined, gzip };
}

/** The file's bytes as they are read, counted, unpacked when it is gzip. */
async function* fileBytes(path: string, gzip: boolean, onRead: (bytes: number) => void): AsyncGenerator<Uint8Array> {
  let stream: ReadableStream<Uint8Array> = Bun.file(path).stream();
  stream = stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        onRead(chunk.byteLength);
        controller.enqueue(chunk);
      },
    }),
  );
  if (gzip) stream = stream.pipeThrough(new DecompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>);
  yield* stream;
}

/**
 * Splits a newline-delimited or CSV file into chunks of whole records, each at most `limits.rows`
 * records and about `limits.bytes` bytes. The same file and limits always give the same chunks: that
 * is what makes a chunk's idempotency key stand for the same records on a rerun. CSV records may hold
 * line breaks inside quotes; a line break ends a record only outside them. A Parquet file is one chunk.
 */
export async function* chunksOf(path: string, format: PushFormat, gzip: boolean, limits: ChunkLimits): AsyncGenerator<Chunk> {
  let read = 0;
  if (format === 'parquet') {
    const file = Bun.file(path);
    yield { index: 0, body: file, gzipped: gzip, rows: undefined, readBytes: file.size };
    return;
  }
  let header: Uint8Array | undefined;
  let pieces: Uint8Array[] = [];
  let pieceBytes = 0;
  let rows = 0;
  let index = 0;
  let inQuotes = false;
  let carry = new Uint8Array();
  const flush = (): Chunk | undefined => {
    if (rows === 0) return undefined;
    const parts = header ? [header, ...pieces] : pieces;
    const chunk = { index: index++, body: Buffer.concat(parts), gzipped: false, rows, readBytes: read };
    pieces = [];
    pieceBytes = 0;
    rows = 0;
    return chunk;
  };
  const take = (record: Uint8Array): Chunk | undefined => {
    if (format === 'csv' && !header) {
      header = Buffer.concat([record, newline]);
      return undefined;
    }
    if (isBlank(record)) return undefined;
    pieces.push(record, newline);
    pieceBytes += record.byteLength + 1;
    rows += 1;
    return rows >= limits.rows || pieceBytes >= limits.bytes ? flush() : undefined;
  };
  for await (const data of fileBytes(path, gzip, (bytes) => (read += bytes))) {
    const buffer = carry.byteLength ? Buffer.concat([carry, data]) : data;
    let start = 0;
    if (format === 'ndjson') {
      for (let at = buffer.indexOf(0x0a); at !== -1; at = buffer.indexOf(0x0a, start)) {
        const chunk = take(buffer.subarray(start, at));
        start = at + 1;
        if (chunk) yield chunk;
      }
    } else {
      for (let at = 0; at < buffer.byteLength; at++) {
        const byte = buffer[at]!;
        if (byte === 0x22) inQuotes = !inQuotes;
        else if (byte === 0x0a && !inQuotes) {
          const chunk = take(buffer.subarray(start, at));
          start = at + 1;
          if (chunk) yield chunk;
        }
      }
    }
    carry = buffer.slice(start);
  }
  if (carry.byteLength) {
    const chunk = take(carry);
    if (chunk) yield chunk;
  }
  const last = flush();
  if (last) yield last;
}

const newline = new Uint8Array([0x0a]);

function isBlank(record: Uint8Array): boolean {
  for (const byte of record) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  return true;
}
