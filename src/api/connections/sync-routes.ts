import { Elysia, t } from 'elysia';
import type { Services } from '../../runtime/services';
import { workspaceAccess } from '../plugins/workspace-access';
import { operation } from '../openapi/operation';
import { paginationQuery } from '../query-params';
import { tags } from './connection-routes';
import { connectionModels as m, connectionParams, syncJobParams } from './model';

/** Syncs: trigger one, follow jobs (of a connection or the whole workspace), each stream's state. */
export function syncRoutes(services: Pick<Services, 'auth' | 'workspaces' | 'connections' | 'syncJobs'>) {
  const { connections, syncJobs } = services;
  return new Elysia()
    .use(workspaceAccess(services.auth.authenticator, services.workspaces.access))
    .get(
      '/workspaces/:workspace_id/connections/sync-jobs',
      async ({ membership, query, set }) => {
        const { jobs, total } = await syncJobs.listWorkspace(membership.workspaceId, { limit: query.limit ?? 50, offset: query.offset ?? 0 });
        set.headers['x-total-count'] = String(total);
        return jobs;
      },
      {
        workspace: 'connections:read',
        params: t.Object({ workspace_id: t.String({ format: 'uuid' }) }),
        query: paginationQuery(50),
        response: t.Array(m.SyncJobResponse),
        detail: operation({ id: 'listWorkspaceSyncJobs', tags, summary: 'Sync jobs of every connection, most recent first', errors: [403], list: true }),
      },
    )
    .post(
      '/workspaces/:workspace_id/connections/:connection_id/sync',
      async ({ membership, params, body, set }) => {
        const connection = await connections.row(membership.workspaceId, params.connection_id);
        set.status = 202;
        return syncJobs.trigger(membership, connection, body ?? {});
      },
      {
        workspace: 'content:manage',
        params: connectionParams,
        body: t.Nullable(m.TriggerSyncRequest),
        response: { 202: m.TriggerSyncResponse },
        detail: operation({
          id: 'triggerSync',
          tags,
          summary: 'Start a sync (MEMBER and above); answers at once with the job',
          description:
            'A second sync of a connection while one runs is 409 SYNC_IN_PROGRESS. A stream asked for in an incremental mode without a cursor is 422 at `sync_mode.<stream>`, naming the candidates. Streams the credentials cannot read are skipped (status `skipped`, with a reason); the job succeeds when every readable stream did. The body is optional.',
          errors: [403, 404, 409, 503],
          optionalBody: true,
        }),
      },
    )
    .get(
      '/workspaces/:workspace_id/connections/:connection_id/sync-jobs',
      async ({ membership, params, query, set }) => {
        const connection = await connections.row(membership.workspaceId, params.connection_id);
        const { jobs, total } = await syncJobs.list(connection.id, { limit: query.limit ?? 20, offset: query.offset ?? 0 });
        set.headers['x-total-count'] = String(total);
        return jobs;
      },
      {
        workspace: 'connections:read',
        params: connectionParams,
        query: paginationQuery(20),
        response: t.Array(m.SyncJobResponse),
        detail: operation({ id: 'listSyncJobs', tags, summary: 'A connection’s sync jobs, most recent first', errors: [403, 404], list: true }),
      },
    )
    .get(
      '/workspaces/:workspace_id/connections/:connection_id/sync-jobs/:job_id',
      async ({ membership, params }) => syncJobs.get((await connections.row(membership.workspaceId, params.connection_id)).id, params.job_id),
      {
        workspace: 'connections:read',
        params: syncJobParams,
        response: m.SyncJobResponse,
        detail: operation({
          id: 'getSyncJob',
          tags,
          summary: 'A sync job: live progress per stream while it runs, its record once it has ended',
          errors: [403, 404],
        }),
      },
    )
    .get(
      '/workspaces/:workspace_id/connections/:connection_id/sync-status',
      async ({ membership, params, set }) => {
        const states = await syncJobs.states((await connections.row(membership.workspaceId, params.connection_id)).id);
        set.headers['x-total-count'] = String(states.length);
        return states;
      },
      {
        workspace: 'connections:read',
        params: connectionParams,
        response: t.Array(m.SyncStateResponse),
        detail: operation({ id: 'getSyncStatus', tags, summary: 'Each stream’s sync state: mode, cursor, rows, last job', errors: [403, 404], list: true }),
      },
    );
}
