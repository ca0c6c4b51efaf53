import { AppError, RequestValidationError } from '../errors/app-error';
import type { Logger } from '../logging/logger';
import type { Queryable, Store } from '../store/store';
import type { Clock } from '../util/clock';
import { allows } from '../workspaces/roles';
import type { Membership } from '../workspaces/workspace-view';
import type { AnyConnector, StreamInfo } from '../connectors/connector';
import { assertCursors, configuredAsked } from './cursor-checks';
import type { SourceAddressPolicy } from '../connectors/source-address';
import { SourceError } from '../connectors/source-error';
import { patchedSpec, secretPaths } from '../connectors/spec-values';
import type { TablesService } from '../lake/tables-service';
import type { ConnectionSecrets } from './connection-secrets';
import {
  checkedComparison,
  checkedConnector,
  checkedName,
  checkedObject,
  checkedQueryMode,
  checkedSchedule,
  checkedSpec,
  checkedStreams,
} from './connection-input';
import { connectionView, isOpen, type ConnectionView } from './connection-view';
import type { Schedule } from '../schedules/schedule';
import { bindSecrets, carriesSecrets } from './secret-binding';
import type { ConfiguredStream } from './stream-plan';
import type { SyncSchedules, SyncWorkflows } from './sync-workflows';
import {
  cancelOpenSyncJob,
  countConnections,
  deleteConnection,
  deleteConnectionSyncStates,
  findConnection,
  findConnectionByName,
  findOpenSyncJob,
  findSyncJob,
  insertConnection,
  listConnections,
  listSyncStates,
  updateConnection,
  type ConnectionRow,
  type ConnectionStatus,
  type DeletionMode,
  type QueryMode,
} from './queries';

export interface CreateConnection {
  name: string;
  connector_type: string;
  /** Checked against the type's schema. */
  spec: unknown;
  sync_schedule?: string | null;
  query_mode?: QueryMode;
  deletion_mode?: DeletionMode;
  key_comparison_every?: string | null;
  streams?: ConfiguredStream[] | null;
}

export interface UpdateConnection {
  name?: string;
  connector_type?: string;
  /** Merged into the stored spec (JSON Merge Patch), then checked against the type's schema. */
  spec?: unknown;
  sync_schedule?: string | null;
  query_mode?: QueryMode;
  deletion_mode?: DeletionMode;
  key_comparison_every?: string | null;
  streams?: ConfiguredStream[] | null;
  status?: 'active' | 'paused';
}

export interface ConnectionsServiceDeps {
  store: Store;
  secrets: ConnectionSecrets;
  policy: SourceAddressPolicy;
  schedules: SyncSchedules;
  workflows: SyncWorkflows;
  tables: TablesService;
  /** The workspace's live connections changed: its query instance reopens with them. */
  /** Resolves once every process has been told (not once each has acted on it). */
  liveChanged(workspaceId: string): Promise<void>;
  /** The source's streams, asked of a connection as it would be stored (to name a stream's cursor candidates). */
  discover(row: ConnectionRow): Promise<StreamInfo[]>;
  /** Drops what a connection's change log holds on its source (its replication slot and publication), if it made any. */
  dropChangeLog(row: ConnectionRow): Promise<void>;
  /** The plan's connector limit, asked in the transaction that creates a connection. */
  connectorRoom: { assertRoom(workspaceId: string, db: Queryable): Promise<void> };
  clock: Clock;
  minScheduleIntervalMs: number;
  logger: Logger;
}

/** Whether the connection reads streams from its source's change log (logical replication, a deduplicated stream without a cursor). */
function replicates(row: ConnectionRow): boolean {
  const spec = JSON.parse(row.spec) as { replication_method?: string };
  const streams = row.streams ? (JSON.parse(row.streams) as ConfiguredStream[]) : [];
  return (
    spec.replication_method === 'logical' && streams.some((stream) => stream.sync_mode === 'incremental_append_deduped' && stream.cursor_field === undefined)
  );
}

/** How long a delete that drops the tables waits for a running sync to stop writing first. */
const stopWaitMs = 20_000;

/** A workspace's connections: created, listed, changed and deleted, with their schedules and live attachments. */
export class ConnectionsService {
  constructor(private readonly deps: ConnectionsServiceDeps) {}

  async create(membership: Membership, input: CreateConnection): Promise<ConnectionView> {
    const name = checkedName(input.name);
    const connector = checkedConnector(input.connector_type);
    const spec = checkedSpec(connector, input.spec);
    const queryMode = checkedQueryMode(connector, input.query_mode ?? 'synced');
    const schedule = checkedSchedule(input.sync_schedule ?? null, this.deps.minScheduleIntervalMs);
    const streams = checkedStreams(connector, input.streams ?? null);
    await this.checkAddresses(connector, spec);
    const { store, clock } = this.deps;
    const id = Bun.randomUUIDv7();
    const now = clock.now().toISOString();
    const row: ConnectionRow = {
      id,
      workspace_id: membership.workspaceId,
      name,
      connector_type: connector.type,
      ...this.deps.secrets.seal(id, connector, spec),
      streams: streams && JSON.stringify(streams),
      sync_schedule: schedule?.text ?? null,
      query_mode: queryMode,
      deletion_mode: input.deletion_mode ?? 'delete',
      key_comparison_every: checkedComparison(input.key_comparison_every ?? null),
      status: 'active',
      last_sync_at: null,
      last_sync_status: null,
      created_by: membership.userId,
      created_at: now,
      updated_at: now,
    };
    await assertCursors(connector, spec, configuredAsked(streams), () => this.deps.discover(row));
    await store.transaction(async (tx) => {
      await tx.lock(`connections:${membership.workspaceId}`);
      await this.deps.connectorRoom.assertRoom(membership.workspaceId, tx);
      if (await tx.first(findConnectionByName, { workspace_id: membership.workspaceId, name }))
        throw new AppError('CONFLICT', `A connection named ${name} exists already`, {
          hint: 'Names are the lake schema of the connection’s tables: choose another.',
        });
      const { last_sync_at: _at, last_sync_status: _status, ...values } = row;
      await tx.run(insertConnection, values);
    });
    try {
      await this.applySchedule(row, schedule);
    } catch (error) {
      await store.run(deleteConnection, { id });
      throw error;
    }
    if (queryMode === 'live') await this.deps.liveChanged(membership.workspaceId);
    return connectionView(row, this.deps.secrets, this.deps.clock.now());
  }

  async list(workspaceId: string, page: { limit: number; offset: number }): Promise<{ connections: ConnectionView[]; total: number }> {
    const rows = await this.deps.store.all(listConnections, { workspace_id: workspaceId, ...page });
    const total = Number((await this.deps.store.first(countConnections, { workspace_id: workspaceId }))?.count ?? 0);
    return { connections: rows.map((row) => connectionView(row, this.deps.secrets, this.deps.clock.now())), total };
  }

  async get(workspaceId: string, id: string): Promise<ConnectionView> {
    return connectionView(await this.row(workspaceId, id), this.deps.secrets, this.deps.clock.now());
  }

  /** The stored row of a connection of the workspace; 404 for any other id. */
  async row(workspaceId: string, id: string): Promise<ConnectionRow> {
    const row = await this.deps.store.first(findConnection, { id, workspace_id: workspaceId });
    if (!row) throw new AppError('NOT_FOUND', 'No such connection');
    return row;
  }

  async update(membership: Membership, id: string, input: UpdateConnection): Promise<ConnectionView> {
    const current = await this.row(membership.workspaceId, id);
    if (input.name !== undefined && input.name.toLowerCase() !== current.name)
      throw RequestValidationError.at(['body', 'name'], 'A connection’s name cannot change: it is the schema of its tables', 'value_error');
    if (input.connector_type !== undefined && input.connector_type !== current.connector_type)
      throw RequestValidationError.at(['body', 'connector_type'], 'A connection’s type cannot change', 'value_error');
    const connector = checkedConnector(current.connector_type);
    const spec = input.spec === undefined ? undefined : this.changedSpec(membership, connector, current, checkedObject(input.spec));
    if (spec) await this.checkAddresses(connector, spec);
    const queryMode = checkedQueryMode(connector, input.query_mode ?? current.query_mode);
    const schedule = checkedSchedule(
      input.sync_schedule === undefined ? current.sync_schedule : (input.sync_schedule ?? null),
      this.deps.minScheduleIntervalMs,
    );
    const scheduleText = schedule?.text ?? null;
    const streams = input.streams === undefined ? current.streams : checkedStreams(connector, input.streams) && JSON.stringify(input.streams);
    if (input.status && current.status === 'needs_reauth')
      throw new AppError('CONFLICT', 'The connection needs to be authorized again before it can be resumed or paused');
    const status: ConnectionStatus = input.status ?? current.status;
    const updated: ConnectionRow = {
      ...current,
      ...(spec ? this.deps.secrets.seal(id, connector, spec) : {}),
      streams,
      sync_schedule: scheduleText,
      query_mode: queryMode,
      deletion_mode: input.deletion_mode ?? current.deletion_mode,
      key_comparison_every: input.key_comparison_every === undefined ? current.key_comparison_every : checkedComparison(input.key_comparison_every),
      status,
      updated_at: this.deps.clock.now().toISOString(),
    };
    if (input.streams !== undefined || spec) {
      await assertCursors(
        connector,
        spec ?? this.deps.secrets.open(current),
        configuredAsked(updated.streams ? (JSON.parse(updated.streams) as ConfiguredStream[]) : null),
        () => this.deps.discover(updated),
      );
    }
    await this.deps.store.run(updateConnection, updated);
    try {
      await this.applySchedule(updated, schedule);
    } catch (error) {
      await this.deps.store.run(updateConnection, current);
      throw error;
    }
    if (current.query_mode === 'live' || queryMode === 'live') await this.deps.liveChanged(membership.workspaceId);
    // Its change log no longer wanted there (logical replication turned off, no stream reading it, the source moved): the old source lets its WAL go.
    const moved = spec !== undefined && JSON.stringify(connector.addresses(this.deps.secrets.open(current))) !== JSON.stringify(connector.addresses(spec));
    if (replicates(current) && (moved || !replicates(updated))) await this.releaseChangeLog(current);
    return connectionView(updated, this.deps.secrets, this.deps.clock.now());
  }

  /**
   * Stops the connection's running sync and its schedule, then forgets it. Its tables stay unless
   * `dropTables`: then they are dropped once the sync has stopped writing.
   */
  async delete(membership: Membership, id: string, dropTables: boolean): Promise<void> {
    const row = await this.row(membership.workspaceId, id);
    const { store, workflows, clock } = this.deps;
    await this.deps.schedules.remove(id);
    const open = await store.first(findOpenSyncJob, { connection_id: id });
    if (open) {
      await workflows.cancel(open.workflow_id);
      if (!(await workflows.isRunning(open.workflow_id))) await store.run(cancelOpenSyncJob, { id: open.id, now: clock.now().toISOString() });
      // A slot in use by the sync cannot be dropped: the sync stops first.
      if (dropTables || replicates(row)) await this.untilClosed(open.id);
    }
    await this.releaseChangeLog(row);
    if (dropTables) {
      for (const state of await store.all(listSyncStates, { connection_id: id })) {
        await this.deps.tables.drop(membership.workspaceId, { schema: row.name, table: state.stream }).catch((error: unknown) => {
          if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error;
        });
      }
    }
    await store.transaction(async (tx) => {
      await tx.run(deleteConnectionSyncStates, { connection_id: id });
      await tx.run(deleteConnection, { id });
    });
    if (row.query_mode === 'live') await this.deps.liveChanged(membership.workspaceId);
  }

  /** Drops what the connection's change log holds on its source (a workspace being purged), never failing. */
  async dropChangeLogQuietly(row: ConnectionRow): Promise<void> {
    await this.releaseChangeLog(row);
  }

  /** Best effort: an unreachable source keeps its slot (the log says so), which its owner drops by hand. */
  private async releaseChangeLog(row: ConnectionRow): Promise<void> {
    try {
      await this.deps.dropChangeLog(row);
    } catch (error) {
      this.deps.logger.warn('the replication slot and publication of a connection could not be dropped on its source; drop them there by hand', {
        connection_id: row.id,
        error,
      });
    }
  }

  /**
   * The spec a PATCH makes, its secrets bound to where it points: pointing the connection elsewhere
   * drops the secrets it does not set anew, and needs a role that may manage secrets when the
   * connection holds any (a member could otherwise send an owner's password to a server of theirs).
   */
  private changedSpec(membership: Membership, connector: AnyConnector, current: ConnectionRow, patch: Record<string, unknown>): Record<string, unknown> {
    const before = this.deps.secrets.open(current);
    const after = checkedSpec(connector, patchedSpec(before, patch, secretPaths(connector.spec)));
    const bound = bindSecrets(connector, before, after, patch);
    if (bound.repointed && carriesSecrets(connector, before) && !allows(membership.role, 'connections:secrets')) {
      throw new AppError('INSUFFICIENT_ROLE', 'Only an owner or admin can point a connection that holds secrets somewhere else', {
        hint: 'Its password, key or auth header would go there: ask an owner or admin, or create a connection of your own.',
      });
    }
    return bound.repointed ? checkedSpec(connector, bound.spec) : after;
  }

  /** The schedule as the row says: created or updated (paused with the connection), or removed. */
  private async applySchedule(row: ConnectionRow, schedule: Schedule | null): Promise<void> {
    if (schedule)
      await this.deps.schedules.ensure(row, schedule.kind === 'cron' ? { cron: schedule.cron } : { every: schedule.every }, row.status !== 'active');
    else await this.deps.schedules.remove(row.id);
  }

  /** Every address the spec names must be allowed; one that does not resolve now is checked when used. */
  private async checkAddresses(connector: AnyConnector, spec: Record<string, unknown>): Promise<void> {
    for (const address of connector.addresses(spec)) {
      await this.deps.policy.check(address).catch((error: unknown) => {
        if (!(error instanceof SourceError)) throw error;
      });
    }
  }

  private async untilClosed(jobId: string): Promise<void> {
    const deadline = Date.now() + stopWaitMs;
    while (Date.now() < deadline) {
      const job = await this.deps.store.first(findSyncJob, { id: jobId });
      if (!job || !isOpen(job.status)) return;
      await Bun.sleep(200);
    }
    this.deps.logger.warn('a cancelled sync did not stop in time; its tables are dropped anyway', { job_id: jobId });
  }
}
