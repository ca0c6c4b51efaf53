import { createHash } from 'node:crypto';
import type { Logger } from '../logging/logger';
import type { Queryable } from '../store/store';
import { findDagRun } from './transform-queries';
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
 * no transform reads a changed table. A sync job's runs have one id, so a listener called again for
 * the same job (its activity retried) finds the run it started rather than starting another.
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
    const dagRunId = dagRunIdOf(event);
    // Planned already: its workflow runs or has run (a running one would also be found by its id).
    if (await this.db.first(findDagRun, { id: dagRunId })) return dagRunId;
    await this.workflows.start({
      workspaceId: event.workspaceId,
      dagRunId,
      request: { kind: 'downstream', tables: [...changed] },
      trigger: 'after_sync',
      objectId: dagRunId,
    });
    this.logger.info('transforms started after a sync', {
      workspace_id: event.workspaceId,
      connection_id: event.connectionId,
      job_id: event.jobId,
      dag_run_id: dagRunId,
    });
    return dagRunId;
  };
}

/** A UUID (version 5 layout) named by the workspace and the sync job: the same job, the same DAG run. */
function dagRunIdOf(event: SyncFinished): string {
  const bytes = createHash('sha1').update(`transforms-after-sync:${event.workspaceId}:${event.jobId}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
