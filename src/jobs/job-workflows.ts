import type { JobStatus } from './job-queries';

export interface LiveJobStatus {
  status: JobStatus;
  started_at: string | null;
  progress: number | null;
}

/** What the jobs service needs of each job's durable workflow. */
export interface QueryJobWorkflows {
  start(job: { id: string; workspace_id: string; priority: number }): Promise<void>;
  /** The running workflow's own answer; undefined once it has closed (the job record answers then). */
  live(jobId: string): Promise<LiveJobStatus | undefined>;
  cancel(jobId: string): Promise<void>;
}

/** What the query activity tells the job's workflow: the query has started. */
export interface JobStartedNotice {
  started(jobId: string, startedAt: string): Promise<void>;
}
