import type { StreamProgress } from './stream-sync';
import type { StreamStatus, SyncJobStatus } from './queries';

/** A stream's state and counts, as the running sync tells them and as the job's record keeps them. */
export interface SyncStreamStatus {
  name: string;
  status: StreamStatus;
  sync_mode: string;
  records_read: number;
  records_written: number;
  records_deleted?: number;
  bytes_read: number;
  reason?: string;
  error?: string;
}

/** A running sync's own answer: its state and each stream's counts. */
export interface LiveSyncStatus {
  status: SyncJobStatus;
  startedAt: string | null;
  streams: SyncStreamStatus[];
}

/** What the connections feature needs of the sync workflows (implemented by their client module). */
export interface SyncWorkflows {
  start(job: { id: string; workspace_id: string; connection_id: string }): Promise<void>;
  /** The running workflow's answer; undefined once it has closed (the job record answers then). */
  live(workflowId: string): Promise<LiveSyncStatus | undefined>;
  /** Whether the workflow still runs (a job record left open by a workflow that is gone is not). */
  isRunning(workflowId: string): Promise<boolean>;
  /** Asks the workflow to stop its streams; it records the job as cancelled. */
  cancel(workflowId: string): Promise<void>;
}

/** Each connection's Temporal Schedule, id `connection-sync-<connection id>`. */
export interface SyncSchedules {
  ensure(connection: { id: string; workspace_id: string }, schedule: { every: string } | { cron: string }, paused: boolean): Promise<void>;
  remove(connectionId: string): Promise<void>;
}

/** A stream's activity tells its workflow how far it got. */
export interface SyncProgressNotice {
  progress(workflowId: string, stream: string, progress: StreamProgress): Promise<void>;
}
