import { ColumnInference, type InferredColumn } from '../../engine/write/infer-schema';
import { maxRecordBytes } from '../../engine/write/file-source';
import { RequestValidationError } from '../../errors/app-error';
import { assertKeepableParsed } from './json-input';

/**
 * Reads a newline-delimited JSON upload as it arrives, by the JSON push's own rules: each line one
 * JSON object (blank lines skipped), its values keepable (depth, number range, no NUL or lone
 * surrogate), its fields named by the column rules; the columns are inferred by the push's inference.
 * The records are not kept: DuckDB's reader reads the file again, with these columns' types.
 */
export class NdjsonRecords {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private readonly inference = new ColumnInference();
  private pending = '';
  private line = 0;
  private records = 0;

  write(chunk: Uint8Array): void {
    this.take(this.decode(chunk, true), false);
  }

  /** The columns, once the body has ended; refuses a body without records. */
  end(): { columns: InferredColumn[]; records: number } {
    this.take(this.decode(new Uint8Array(), false), true);
    if (this.records === 0) throw RequestValidationError.at(['body'], 'The body holds no records; send one JSON object per line', 'too_short');
    const columns = this.inference.columns();
    if (columns.length === 0) throw RequestValidationError.at(['body'], 'The records have no fields', 'value_error');
    return { columns, records: this.records };
  }

  private decode(chunk: Uint8Array, stream: boolean): string {
    try {
      return this.decoder.decode(chunk, { stream });
    } catch {
      throw RequestValidationError.at(['body'], 'The body is not valid UTF-8', 'json_invalid');
    }
  }

  private take(text: string, last: boolean): void {
    let data = this.pending + text;
    let start = 0;
    for (let end = data.indexOf('\n'); end !== -1; end = data.indexOf('\n', start)) {
      this.record(data.slice(start, end));
      start = end + 1;
    }
    data = data.slice(start);
    if (last && data.length > 0) {
      this.record(data);
      data = '';
    }
    // A line grows until its newline: bounded, so that no record can hold the process's memory.
    if (data.length > maxRecordBytes) throw RequestValidationError.at(['body', this.records], `Line ${this.line + 1} is longer than ${maxRecordBytes} bytes`, 'too_long');
    this.pending = data;
  }

  private record(text: string): void {
    this.line += 1;
    const line = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (line.trim().length === 0) return;
    const index = this.records++;
    if (line.length > maxRecordBytes) throw RequestValidationError.at(['body', index], `Line ${this.line} is longer than ${maxRecordBytes} bytes`, 'too_long');
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw RequestValidationError.at(['body', index], `Line ${this.line} is not valid JSON`, 'json_invalid');
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw RequestValidationError.at(['body', index], `Line ${this.line} must hold a JSON object`, 'dict_type');
    assertKeepableParsed(value, ['body', index], line);
    this.inference.add(value as Record<string, unknown>, index);
  }
}
