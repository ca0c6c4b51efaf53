import { apiErrorOf, ApiError } from './errors';
import type { TokenSource } from './client';

/** The body types the push endpoint takes as a file (ARCHITECTURE §10), by file name. */
export const uploadTypes: { extensions: string[]; type: string; label: string }[] = [
  { extensions: ['.csv'], type: 'text/csv', label: 'CSV with a header row' },
  { extensions: ['.ndjson', '.jsonl'], type: 'application/x-ndjson', label: 'NDJSON, one record a line' },
  { extensions: ['.parquet'], type: 'application/vnd.apache.parquet', label: 'Parquet' },
];

export function uploadTypeOf(fileName: string): string | undefined {
  const lower = fileName.toLowerCase();
  return uploadTypes.find((entry) => entry.extensions.some((extension) => lower.endsWith(extension)))?.type;
}

export interface PushAnswer {
  records_written: number;
  table: string;
}

export interface UploadOptions {
  workspaceId: string;
  file: File;
  table: string;
  mode: 'append' | 'overwrite';
  primaryKey: string[];
  tokens: TokenSource;
  onProgress: (sent: number, total: number) => void;
  signal?: AbortSignal;
}

/**
 * Sends a file as the body of a push. Through XMLHttpRequest, not fetch: only it reports how much
 * of a request body has been sent, which the progress bar shows.
 */
export async function uploadFile(options: UploadOptions): Promise<PushAnswer> {
  const type = uploadTypeOf(options.file.name);
  if (!type)
    throw new ApiError(
      0,
      'UNSUPPORTED_FILE',
      `${options.file.name} is not a file the service takes`,
      `Use ${uploadTypes.flatMap((entry) => entry.extensions).join(', ')}.`,
    );
  const query = new URLSearchParams({ table: options.table, mode: options.mode });
  if (options.primaryKey.length > 0) query.set('primary_key', options.primaryKey.join(','));
  const token = await options.tokens.accessToken();
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/api/v1/workspaces/${encodeURIComponent(options.workspaceId)}/push?${query}`);
    request.setRequestHeader('content-type', type);
    if (token) request.setRequestHeader('authorization', `Bearer ${token}`);
    request.responseType = 'json';
    request.upload.onprogress = (event) => options.onProgress(event.loaded, event.lengthComputable ? event.total : options.file.size);
    request.onload = () =>
      request.status >= 200 && request.status < 300 ? resolve(request.response as PushAnswer) : reject(apiErrorOf(request.status, request.response));
    request.onerror = () => reject(new ApiError(0, 'NETWORK_ERROR', 'The upload was interrupted', 'Check the connection and try again.'));
    request.onabort = () => reject(new ApiError(0, 'ABORTED', 'The upload was cancelled'));
    options.signal?.addEventListener('abort', () => request.abort());
    request.send(options.file);
  });
}
