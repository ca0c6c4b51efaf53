import type { EngineConnection } from '../../engine/duckdb/engine-connection';
import { duckdbErrorOf } from '../../engine/duckdb/duckdb-error';
import { sqlString } from '../../engine/sql-literals';
import { SourceError } from '../source-error';

export type FileFormat = 'csv' | 'parquet' | 'json' | 'ndjson';

/** One object of the bucket a stream's glob matches. */
export interface SourceFile {
  url: string;
  /** ISO time of its last modification: the incremental modes' cursor (with the URL for ties). */
  modified: string;
  size: number;
}

/** How the store was reached: the egress proxy's first refusal is what a failure really was. */
export interface StoreRoute {
  refusal(): Promise<Error | undefined>;
}

/** Where a read stands: after this file, in (modified, url) order. */
export interface FilePosition {
  modified: string;
  url: string;
}

/** `s3://bucket/<glob>`; the glob stays within the bucket. */
export function globUrl(bucket: string, glob: string): string {
  const key = glob.replace(/^\/+/, '');
  if (key.includes('://')) throw new SourceError('invalid', 'A glob is a key pattern within the bucket, not a URL');
  return `s3://${bucket}/${key}`;
}

/** The files the glob matches, oldest first (ties by URL): only their listing is read, not their contents. */
export async function listFiles(connection: EngineConnection, url: string, route: StoreRoute): Promise<SourceFile[]> {
  const rows = await fromStore(() => connection.read(`SELECT filename, last_modified, size FROM read_blob(${sqlString(url)})`), route);
  return rows
    .getRowObjectsJS()
    .map((row) => ({ url: String(row.filename), modified: (row.last_modified as Date).toISOString(), size: Number(row.size) }))
    .sort((a, b) => (a.modified === b.modified ? compare(a.url, b.url) : compare(a.modified, b.modified)));
}

/** Files strictly after the position. */
export function filesAfter(files: SourceFile[], position: FilePosition | null): SourceFile[] {
  if (!position) return files;
  return files.filter((file) => file.modified > position.modified || (file.modified === position.modified && file.url > position.url));
}

/** Files of one batch: up to this many files or bytes (at least one file). */
export function nextBatch(files: SourceFile[], maxFiles: number, maxBytes: number): SourceFile[] {
  const batch: SourceFile[] = [];
  let bytes = 0;
  for (const file of files) {
    if (batch.length > 0 && (batch.length >= maxFiles || bytes + file.size > maxBytes)) break;
    batch.push(file);
    bytes += file.size;
  }
  return batch;
}

/**
 * The rows of the files with two columns of their own: the file (`_source_file`) and its
 * modification time (`_source_modified_at`). Files of one batch are read by name, columns matched.
 */
export function filesSelect(files: SourceFile[], format: FileFormat): string {
  const list = `[${files.map((file) => sqlString(file.url)).join(', ')}]`;
  const reader = {
    csv: `read_csv(${list}, union_by_name = true, filename = '_source_file')`,
    parquet: `read_parquet(${list}, union_by_name = true, filename = '_source_file')`,
    json: `read_json(${list}, format = 'auto', union_by_name = true, filename = '_source_file')`,
    ndjson: `read_json(${list}, format = 'newline_delimited', union_by_name = true, filename = '_source_file')`,
  }[format];
  const times = files.map((file) => `(${sqlString(file.url)}, TIMESTAMPTZ ${sqlString(file.modified)})`).join(', ');
  return `SELECT batch.*, files.modified AS _source_modified_at FROM ${reader} AS batch JOIN (VALUES ${times}) AS files(url, modified) ON batch._source_file = files.url`;
}

/** Runs work on the bucket, turning DuckDB's errors about it into SourceErrors (or the proxy's refusal, when it refused). */
export async function fromStore<T>(work: () => Promise<T>, route: StoreRoute): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const refusal = await route.refusal();
    if (refusal) throw refusal;
    const info = duckdbErrorOf(error);
    if (!info || !['IO', 'HTTP', 'Invalid Input'].includes(info.type)) throw error;
    const detail = info.detail.split('\n')[0]!;
    if (/\b(403|401)\b|Forbidden|AccessDenied|SignatureDoesNotMatch|InvalidAccessKeyId/i.test(info.detail))
      throw new SourceError('auth', `Authentication failed: ${detail}`);
    if (/NoSuchBucket|\b404\b/i.test(info.detail)) throw new SourceError('not_found', `No such bucket or key: ${detail}`);
    if (/resolve|connect|timed out|refused|unreachable/i.test(info.detail)) throw new SourceError('unreachable', `Host unreachable: ${detail}`);
    if (/SSL|TLS|certificate/i.test(info.detail)) throw new SourceError('tls', `TLS connection failed: ${detail}`);
    throw new SourceError('other', `The store answered: ${detail}`);
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
