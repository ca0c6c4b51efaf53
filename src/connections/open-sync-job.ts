import type { Store } from '../store/store';
import { findConnectionById, findOpenSyncJob, findSyncJob, insertSyncJob, type ConnectionRow, type SyncJobRow, type SyncTrigger } from './queries';

export interface NewSyncJob {
  trigger: SyncTrigger;
  /** The workflow that runs the job; by default its id is the job's own. */
  workflowId?: string;
  request: string | null;
  createdBy: string | null;
  now: string;
  /** Whether the connection may sync now (a schedule skips a paused one); any connection by default. */
  accepts?: (connection: ConnectionRow) => boolean;
}

export type OpenedSyncJob = { created: SyncJobRow } | { running: SyncJobRow } | { refused: true };

/**
 * Records a sync job of a connection unless one is open: checked and written in one transaction under
 * the connection's lock, so that two triggers at once (a request, a schedule, an OAuth callback) never
 * both start a sync. A connection that is gone or not accepted is refused.
 */
export function openSyncJob(store: Store, connectionId: string, job: NewSyncJob): Promise<OpenedSyncJob> {
  return store.transaction(async (tx) => {
    await tx.lock(`connection-sync:${connectionId}`);
    const connection = await tx.first(findConnectionById, { id: connectionId });
    if (!connection || !(job.accepts?.(connection) ?? true)) return { refused: true };
    const running = await tx.first(findOpenSyncJob, { connection_id: connectionId });
    if (running) return { running };
    const id = Bun.randomUUIDv7();
    await tx.run(insertSyncJob, {
      id,
      workspace_id: connection.workspace_id,
      connection_id: connection.id,
      connection_name: connection.name,
      workflow_id: job.workflowId ?? id,
      trigger: job.trigger,
      request: job.request,
      created_by: job.createdBy,
      created_at: job.now,
    });
    return { created: (await tx.first(findSyncJob, { id }))! };
  });
}
