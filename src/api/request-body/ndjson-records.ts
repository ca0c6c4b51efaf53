import { isUtf8 } from 'node:buffer';
import { ColumnInference, type InferredColumn } from '../../engine/write/infer-schema';
import { maxRecordBytes } from '../../engine/write/file-source';
import { RequestValidationError } from '../../errors/app-error';
import { assertKeepableParsed } from './json-input';

const newline = 0x0a;
/**
 * How many bytes a line not yet ended may hold before it is refused. Lines are limited to
 * maxRecordBytes characters, and a character takes at most three bytes of UTF-8 per UTF-16 unit: a
 * line this long is too long whatever it holds, and one shorter is measured once it has ended.
 */
const maxPendingBytes = 3 * maxRecordBytes;

/**
 * Reads a newline-delimited JSON upload as it arrives, by the JSON push's own rules: each line one
 * JSON object (blank lines skipped), its values keepable (depth, number range, no NUL or lone
 * surrogate), its fields named by the column rules; the columns are inferred by the push's inference.
 * The records are not kept: DuckDB's reader reads the file again, with these columns' types.
 *
 * Each chunk is read up to its last newline, which never falls inside a character of UTF-8: those
 * bytes are checked and decoded in one go, the rest waits for the next chunk.
 */
export class NdjsonRecords {
  private readonly inference = new ColumnInference();
  private pending: Uint8Array = new Uint8Array(0);
  private started = false;
  private line = 0;
  private records = 0;

  write(chunk: Uint8Array): void {
    const first = chunk.indexOf(newline);
    if (first === -1) {
      this.pending = joined(this.pending, chunk);
      // A line grows until its newline: bounded, so that no record can hold the process's memory.
      if (this.pending.byteLength > maxPendingBytes) this.tooLong(this.line + 1);
      return;
    }
    // The line begun in earlier chunks, then the whole lines of this one, read where they lie.
    const last = chunk.lastIndexOf(newline);
    this.take(this.decode(joined(this.pending, chunk.subarray(0, first + 1))));
    if (last > first) this.take(this.decode(chunk.subarray(first + 1, last + 1)));
    this.pending = chunk.slice(last + 1);
  }

  /** The columns, once the body has ended; refuses a body without records. */
  end(): { columns: InferredColumn[]; records: number } {
    if (this.pending.byteLength > 0) this.take(`${this.decode(this.pending)}\n`);
    if (this.records === 0) throw RequestValidationError.at(['body'], 'The body holds no records; send one JSON object per line', 'too_short');
    const columns = this.inference.columns();
    if (columns.length === 0) throw RequestValidationError.at(['body'], 'The records have no fields', 'value_error');
    return { columns, records: this.records };
  }

  private decode(bytes: Uint8Array): string {
    if (!isUtf8(bytes)) throw RequestValidationError.at(['body'], 'The body is not valid UTF-8', 'json_invalid');
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    // A byte-order mark opens the body at most, as a TextDecoder would drop it.
    const first = !this.started;
    this.started = true;
    return first && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }

  /** Reads every line of `text`, which ends with a newline. */
  private take(text: string): void {
    // Text without a `\u` escape cannot spell what assertKeepable looks for in texts.
    const escapes = text.includes('\\u');
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      this.record(text, start, end, escapes);
      start = end + 1;
    }
  }

  private record(text: string, start: number, end: number, escapes: boolean): void {
    this.line += 1;
    const stop = end > start && text.charCodeAt(end - 1) === 0x0d ? end - 1 : end;
    // A record's line opens with a brace; only another line can be blank, which trim tells.
    if (text.charCodeAt(start) !== 0x7b && text.slice(start, stop).trim().length === 0) return;
    const index = this.records++;
    if (stop - start > maxRecordBytes) this.tooLong(this.line, index);
    const line = text.slice(start, stop);
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw RequestValidationError.at(['body', index], `Line ${this.line} is not valid JSON`, 'json_invalid');
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw RequestValidationError.at(['body', index], `Line ${this.line} must hold a JSON object`, 'dict_type');
    assertKeepableParsed(value, ['body', index], escapes);
    this.inference.add(value as Record<string, unknown>, index);
  }

  private tooLong(line: number, index = this.records): never {
    throw RequestValidationError.at(['body', index], `Line ${line} is longer than ${maxRecordBytes} bytes`, 'too_long');
  }
}

function joined(head: Uint8Array, tail: Uint8Array): Uint8Array {
  if (head.byteLength === 0) return tail;
  const both = new Uint8Array(head.byteLength + tail.byteLength);
  both.set(head);
  both.set(tail, head.byteLength);
  return both;
}
