import { useEffect, useRef, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema';
import type { ResultColumn, ResultSource } from '../../ui/results-grid';
import { csvText } from './downloads';

export type JobStatus = components['schemas']['JobStatusResponse'];
const finished = new Set(['succeeded', 'failed', 'cancelled']);
const pollMs = 500;
/** The largest page the job endpoint gives (its `limit`'s maximum). */
const pageLimit = 10_000;

/** Follows a query job until it ends: its status and progress every half second. */
export function useJob(jobId: string | undefined): { status: JobStatus | undefined; error: unknown } {
  const [status, setStatus] = useState<JobStatus | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => {
    setStatus(undefined);
    setError(undefined);
    if (!jobId) return;
    let stopped = false;
    const poll = async () => {
      try {
        const next = await unwrap(api.GET('/api/v1/query/jobs/{job_id}', { params: { path: { job_id: jobId }, query: { limit: 1 } } }));
        if (stopped) return;
        setStatus(next);
        if (!finished.has(next.status)) timer.current = window.setTimeout(() => void poll(), pollMs);
      } catch (caught) {
        if (!stopped) setError(caught);
      }
    };
    void poll();
    return () => {
      stopped = true;
      window.clearTimeout(timer.current);
    };
  }, [jobId]);
  return { status, error };
}

/** Cancels a pending or running job (ARCHITECTURE §10). */
export async function cancelJob(jobId: string): Promise<void> {
  await unwrap(api.POST('/api/v1/query/jobs/{job_id}/cancel', { params: { path: { job_id: jobId } } }));
}

async function jobRows(jobId: string, offset: number, limit: number): Promise<unknown[][]> {
  const page = await unwrap(api.GET('/api/v1/query/jobs/{job_id}', { params: { path: { job_id: jobId }, query: { offset, limit, format: 'json' } } }));
  if (page.result?.expired) throw new Error('The job’s result has expired. Run the query again.');
  return page.result?.rows ?? [];
}

/** A succeeded job's result, read from the service a page at a time. */
export function jobSource(jobId: string, result: NonNullable<JobStatus['result']>): ResultSource {
  return { columns: result.columns, total: result.row_count, page: (offset, limit) => jobRows(jobId, offset, limit) };
}

/** Every row of a job's result, page by page, for a download. */
export async function allJobRows(jobId: string, total: number): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  for (let offset = 0; offset < total; offset += pageLimit) rows.push(...(await jobRows(jobId, offset, pageLimit)));
  return rows;
}

/** The job's result as CSV written by the service, page by page (the header row once). */
export async function jobCsv(jobId: string, total: number, columns: ResultColumn[]): Promise<string[]> {
  if (total === 0) return [csvText(columns, [])];
  const parts: string[] = [];
  for (let offset = 0; offset < total; offset += pageLimit) {
    const page = await unwrap(
      api.GET('/api/v1/query/jobs/{job_id}', { params: { path: { job_id: jobId }, query: { offset, limit: pageLimit, format: 'csv' } } }),
    );
    const csv = page.result?.csv ?? '';
    parts.push(offset === 0 ? csv : csv.slice(csv.indexOf('\n') + 1));
  }
  return parts;
}
