/** What the jobs service needs of each job's durable workflow. */
export interface QueryJobWorkflows {
  start(job: { id: string; workspace_id: string; priority: number }): Promise<void>;
  /** A running query's progress (0 to 1) from its activity's last heartbeat; undefined once the workflow has closed. */
  progress(jobId: string): Promise<number | undefined>;
  cancel(jobId: string): Promise<void>;
}

/** What the query activity tells the job's workflow: the query has started. */
export interface JobStartedNotice {
  started(jobId: string, startedAt: string): Promise<void>;
}
