import type { QueryColumn } from '../engine/sql/result-sink';
import type { JobRow, JobStatus } from './job-queries';
import type { ResultPage } from './result-page';

export interface JobStatusView {
  job_id: string;
  workspace_id: string;
  status: JobStatus;
  priority: number;
  submitted_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** 0 while pending, the query's progress while running (see ProgressSampler), 1 once succeeded; null once failed or cancelled. */
  progress: number | null;
  error: { code: string; message: string; hint?: string } | null;
  /** A succeeded job's result: with a page of its rows on the job's own status, without in lists. */
  result: JobResultView | JobResultSummary | null;
}

export type JobResultView = JobResultSummary & { offset: number; limit: number } & (ResultPage | { rows: null });

export interface JobResultSummary {
  columns: QueryColumn[];
  row_count: number;
  bytes_scanned: number;
  cost_eur: number;
  cpu_ms: number;
  /** True once the result has been removed; the page is then `rows: null`. */
  expired: boolean;
  expires_at: string | null;
}

export function jobStatusView(row: JobRow, liveProgress: number | undefined, result: JobResultView | JobResultSummary | null): JobStatusView {
  return {
    job_id: row.id,
    workspace_id: row.workspace_id,
    status: row.status,
    priority: row.priority,
    submitted_at: row.submitted_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    progress: progressOf(row.status, liveProgress),
    error: row.error_code ? { code: row.error_code, message: row.error_message ?? '', ...(row.error_hint ? { hint: row.error_hint } : {}) } : null,
    result,
  };
}

function progressOf(status: JobStatus, live: number | undefined): number | null {
  switch (status) {
    case 'pending':
      return 0;
    case 'running':
      return live ?? 0;
    case 'succeeded':
      return 1;
    case 'failed':
    case 'cancelled':
      return null;
    default:
      return status satisfies never;
  }
}
