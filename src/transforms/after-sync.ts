import type { Logger } from '../logging/logger';
import type { Queryable } from '../store/store';
import { loadTransforms } from './transform-view';
import type { TransformDagWorkflows } from './transform-workflows';

/** What a finished connection sync tells its listeners. */
export interface SyncFinished {
  workspaceId: string;
  connectionId: string;
  jobId: string;
  /** `schema.table` names the sync wrote to. */
  changedTables: string[];
}

/**
 * Keeps a pipeline fresh without cron: when a sync changed tables, the stale transforms downstream of
 * them run (trigger `after_sync`). Which ones is decided by the run's own planning, when it starts:
 * the transforms reading a changed table and everything downstream of them, the stale ones only.
 * Register `onSyncFinished` with the syncs' listeners; it answers the DAG run's id, or undefined when
 * no transform reads a changed table.
 */
export class TransformsAfterSync {
  constructor(
    private readonly db: Queryable,
    private readonly workflows: TransformDagWorkflows,
    private readonly logger: Logger,
  ) {}

  readonly onSyncFinished = async (event: SyncFinished): Promise<string | undefined> => {
    const changed = new Set(event.changedTables.map((table) => table.toLowerCase()));
    const { graph } = await loadTransforms(this.db, event.workspaceId);
    // No run at all when no transform reads what the sync changed.
    if (!graph.nodes.some((node) => node.reads.some((table) => changed.has(table)))) return undefined;
    const dagRunId = Bun.randomUUIDv7();
    await this.workflows.start({
      workspaceId: event.workspaceId,
      dagRunId,
      request: { kind: 'downstream', tables: [...changed] },
      trigger: 'after_sync',
      objectId: dagRunId,
    });
    this.logger.info('transforms started after a sync', { workspace_id: event.workspaceId, connection_id: event.connectionId, job_id: event.jobId, dag_run_id: dagRunId });
    return dagRunId;
  };
}
