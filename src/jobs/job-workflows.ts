/** How a job's workflow stands, as Temporal's server says (never asking the worker). */
export type JobWorkflowState =
  | { kind: 'running'; /** From the running query's last heartbeat; undefined before it started. */ progress: number | undefined }
  | { kind: 'closed'; outcome: 'completed' | 'failed' | 'cancelled' | 'terminated' | 'timed_out' }
  | { kind: 'missing' };

/** What the jobs service needs of each job's durable workflow. */
export interface QueryJobWorkflows {
  /** `admitted`: the job holds one of its workspace's running slots already; otherwise it waits to be told. */
  start(job: { id: string; workspace_id: string; priority: number }, admitted: boolean): Promise<void>;
  describe(jobId: string): Promise<JobWorkflowState>;
  cancel(jobId: string): Promise<void>;
  /** Tells a waiting job's workflow it now holds a slot; `gone` when no workflow of the job runs. */
  admitted(jobId: string): Promise<'delivered' | 'gone'>;
  /** Resolves true once the job's workflow has closed, false if it still runs after `ms`. */
  waitForEnd(jobId: string, ms: number): Promise<boolean>;
  /** The jobs whose workflows Temporal has running (its visibility store, which may lag by a moment). */
  running(): Promise<string[]>;
}

/** What the query activity tells the job's workflow: the query has started. */
export interface JobStartedNotice {
  started(jobId: string, startedAt: string): Promise<void>;
}
