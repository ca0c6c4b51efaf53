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
  /** DuckDB's progress while running (0 to 1); null otherwise or when unknown. */
  progress: number | null;
  error: { code: string; message: string; hint?: string } | null;
  result: JobResultView | null;
}

export type JobResultView = JobResultSummary & (ResultPage | { rows: null });

interface JobResultSummary {
  columns: QueryColumn[];
  row_count: number;
  bytes_scanned: number;
  cost_eur: number;
  cpu_ms: number;
  offset: number;
  limit: number;
  /** True once the result has been removed; the page is then `rows: null`. */
  expired: boolean;
  expires_at: string | null;
}

export function jobStatusView(row: JobRow, progress: number | null, result: JobResultView | null): JobStatusView {
  return {
    job_id: row.id,
    workspace_id: row.workspace_id,
    status: row.status,
    priority: row.priority,
    submitted_at: row.submitted_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    progress,
    error: row.error_code ? { code: row.error_code, message: row.error_message ?? '', ...(row.error_hint ? { hint: row.error_hint } : {}) } : null,
    result,
  };
}
