import { openSyncJob } from './open-sync-job';
import { AppError } from '../errors/app-error';
import type { Logger } from '../logging/logger';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { Membership } from '../workspaces/workspace-view';
import { isOpen, syncJobView, syncStateView, type SyncJobView, type SyncStateView } from './connection-view';
import type { ConfiguredStream, SyncRequest } from './stream-plan';
import { connectorOf } from '../connectors/registry';
import type { ConnectionSecrets } from './connection-secrets';
import { assertCursors, triggeredAsked } from './cursor-checks';
import type { DiscoveredStreams } from './discovered-streams';
import type { SyncWorkflows } from './sync-workflows';
import {
  countConnectionSyncJobs,
  countWorkspaceSyncJobs,
  failOpenSyncJob,
  findSyncJob,
  listConnectionSyncJobs,
  listSyncStates,
  listWorkspaceSyncJobs,
  type ConnectionRow,
  type SyncJobRow,
} from './queries';

export interface SyncTriggered {
  job_id: string;
  status: 'pending';
  connection_id: string;
  workflow_id: string;
}

type Page = { limit: number; offset: number };

/**
 * Sync jobs: a trigger records the job and starts its workflow (one open job per connection: a
 * second trigger is 409 SYNC_IN_PROGRESS); status answers come from the workflow while it runs and
 * from the record once it has closed.
 */
export class SyncJobsService {
  constructor(
    private readonly store: Store,
    private readonly workflows: SyncWorkflows,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly sources: { secrets: ConnectionSecrets; discovered: DiscoveredStreams },
  ) {}

  async trigger(membership: Membership, connection: ConnectionRow, request: SyncRequest): Promise<SyncTriggered> {
    if (connection.status === 'needs_reauth') throw new AppError('CONFLICT', 'The connection needs to be authorized again before it can sync');
    const connector = connectorOf(connection.connector_type);
    if (connector) {
      const configured = connection.streams ? (JSON.parse(connection.streams) as ConfiguredStream[]) : null;
      const asked = triggeredAsked(configured, request);
      await assertCursors(connector, this.sources.secrets.open(connection), asked, () =>
        this.sources.discovered.naming(
          connection,
          asked.map((stream) => stream.name),
        ),
      );
    }
    let job = await this.record(membership, connection, request);
    if ('running' in job) {
      // A record left open by a workflow that is gone (terminated by hand, say) does not block for ever.
      if (await this.workflows.isRunning(job.running.workflow_id)) {
        throw new AppError('SYNC_IN_PROGRESS', 'A sync of this connection is running', {
          hint: `Follow job ${job.running.id}, or cancel it by deleting the connection.`,
        });
      }
      await this.store.run(failOpenSyncJob, {
        id: job.running.id,
        now: this.now(),
        code: 'INTERNAL_ERROR',
        message: 'The sync’s workflow stopped without recording how it ended',
      });
      job = await this.record(membership, connection, request);
      if ('running' in job) throw new AppError('SYNC_IN_PROGRESS', 'A sync of this connection is running', { hint: `Follow job ${job.running.id}.` });
    }
    try {
      await this.workflows.start(job.created);
    } catch (error) {
      await this.store.run(failOpenSyncJob, { id: job.created.id, now: this.now(), code: 'SERVICE_UNAVAILABLE', message: 'The sync could not be scheduled' });
      throw new AppError('SERVICE_UNAVAILABLE', 'The sync could not be scheduled; its job is recorded as failed', {
        hint: 'Trigger it again in a moment.',
        cause: error,
      });
    }
    return { job_id: job.created.id, status: 'pending', connection_id: connection.id, workflow_id: job.created.workflow_id };
  }

  async list(connectionId: string, page: Page): Promise<{ jobs: SyncJobView[]; total: number }> {
    const rows = await this.store.all(listConnectionSyncJobs, { connection_id: connectionId, ...page });
    const total = Number((await this.store.first(countConnectionSyncJobs, { connection_id: connectionId }))?.count ?? 0);
    return { jobs: await Promise.all(rows.map((row) => this.view(row))), total };
  }

  async listWorkspace(workspaceId: string, page: Page): Promise<{ jobs: SyncJobView[]; total: number }> {
    const rows = await this.store.all(listWorkspaceSyncJobs, { workspace_id: workspaceId, ...page });
    const total = Number((await this.store.first(countWorkspaceSyncJobs, { workspace_id: workspaceId }))?.count ?? 0);
    return { jobs: await Promise.all(rows.map((row) => this.view(row))), total };
  }

  async get(connectionId: string, jobId: string): Promise<SyncJobView> {
    const row = await this.store.first(findSyncJob, { id: jobId });
    if (!row || row.connection_id !== connectionId) throw new AppError('NOT_FOUND', 'No such sync job');
    return this.view(row);
  }

  async states(connectionId: string): Promise<SyncStateView[]> {
    return (await this.store.all(listSyncStates, { connection_id: connectionId })).map(syncStateView);
  }

  /** Records the job, unless one is open already (checked and written under the connection's lock). */
  private async record(membership: Membership, connection: ConnectionRow, request: SyncRequest): Promise<{ created: SyncJobRow } | { running: SyncJobRow }> {
    const opened = await openSyncJob(this.store, connection.id, {
      trigger: 'manual',
      request: JSON.stringify(request),
      createdBy: membership.userId,
      now: this.now(),
    });
    if ('refused' in opened) throw new AppError('NOT_FOUND', 'Connection not found');
    return opened;
  }

  /** The record, or while its workflow runs, the workflow's answer; a record that closed meanwhile is read again. */
  private async view(row: SyncJobRow): Promise<SyncJobView> {
    if (!isOpen(row.status)) return syncJobView(row, undefined);
    const live = await this.workflows.live(row.workflow_id);
    if (live && !isOpen(live.status)) return syncJobView((await this.store.first(findSyncJob, { id: row.id })) ?? row, undefined);
    if (!live) this.logger.debug('an open sync job has no answering workflow', { job_id: row.id });
    return syncJobView(row, live);
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}
