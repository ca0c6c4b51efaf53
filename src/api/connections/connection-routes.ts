import { Elysia, t } from 'elysia';
import type { Services } from '../../runtime/services';
import { connectorTypes } from '../../connectors/registry';
import { authentication } from '../plugins/authentication';
import { workspaceAccess } from '../plugins/workspace-access';
import { ownerRouting } from '../plugins/owner-routing';
import { operation } from '../openapi/operation';
import { paginationQuery } from '../query-params';
import { connectionModels as m, connectionParams } from './model';

export const tags = ['Connections'];
const workspaceParams = t.Object({ workspace_id: t.String({ format: 'uuid' }) });

/** The connector types, and a workspace's connections: create, list, read, change, delete. */
export function connectionRoutes(services: Pick<Services, 'auth' | 'workspaces' | 'connections' | 'oauth' | 'cluster' | 'logger'>) {
  const { connections } = services;
  return new Elysia()
    .use(authentication(services.auth.authenticator))
    .use(workspaceAccess(services.auth.authenticator, services.workspaces.access, ownerRouting(services)))
    .get(
      '/connections/available-types',
      ({ set }) => {
        const types = connectorTypes().map((connector) => ({
          type: connector.type,
          name: connector.name,
          description: connector.description,
          auth: connector.auth,
          // OAuth types are configured once their provider's client is (by the module that authorizes them).
          configured: connector.auth === 'none' || services.oauth.configured(connector.type),
          spec_schema: JSON.parse(JSON.stringify(connector.spec)) as Record<string, unknown>,
          supported_sync_modes: [...connector.supportedSyncModes],
          supports_live: connector.supportsLive,
        }));
        set.headers['x-total-count'] = String(types.length);
        return types;
      },
      {
        auth: 'user',
        response: t.Array(m.ConnectorTypeInfo),
        detail: operation({ id: 'listConnectorTypes', tags, summary: 'Connector types, with the JSON Schema of their spec', list: true }),
      },
    )
    .post(
      '/workspaces/:workspace_id/connections',
      async ({ membership, body, set }) => {
        set.status = 201;
        return connections.create(membership, body);
      },
      {
        workspace: 'content:manage',
        params: workspaceParams,
        body: m.CreateConnectionRequest,
        response: { 201: m.ConnectionResponse },
        detail: operation({
          id: 'createConnection',
          tags,
          summary: 'Create a connection (MEMBER and above)',
          description: 'The spec is validated against the type’s JSON Schema (422 naming the field); its secrets are sealed and read `********` from then on.',
          errors: [400, 403, 409, 503],
        }),
      },
    )
    .get(
      '/workspaces/:workspace_id/connections',
      async ({ membership, query, set }) => {
        const { connections: list, total } = await connections.list(membership.workspaceId, { limit: query.limit ?? 50, offset: query.offset ?? 0 });
        set.headers['x-total-count'] = String(total);
        return list;
      },
      {
        workspace: 'connections:read',
        params: workspaceParams,
        query: paginationQuery(50),
        response: t.Array(m.ConnectionResponse),
        detail: operation({ id: 'listConnections', tags, summary: 'The workspace’s connections', errors: [403], list: true }),
      },
    )
    .get('/workspaces/:workspace_id/connections/:connection_id', ({ membership, params }) => connections.get(membership.workspaceId, params.connection_id), {
      workspace: 'connections:read',
      params: connectionParams,
      response: m.ConnectionResponse,
      detail: operation({ id: 'getConnection', tags, summary: 'One connection', errors: [403, 404] }),
    })
    .patch(
      '/workspaces/:workspace_id/connections/:connection_id',
      ({ membership, params, body }) => connections.update(membership, params.connection_id, body),
      {
        workspace: 'content:manage',
        params: connectionParams,
        body: m.UpdateConnectionRequest,
        response: m.ConnectionResponse,
        detail: operation({
          id: 'updateConnection',
          tags,
          summary: 'Change a connection’s spec, schedule, query mode, streams or status (MEMBER and above)',
          description:
            'The spec is merged as a JSON Merge Patch; a secret sent back as `********` keeps its value. The name and type cannot change. Secrets are bound to where the connection points: a change of host, port, database, base URL or a stream’s origin, endpoint, bucket or region (without an endpoint) drops every secret the same request does not set anew, and needs OWNER or ADMIN when the connection holds one (403 `INSUFFICIENT_ROLE`).',
          errors: [400, 403, 404, 409, 503],
        }),
      },
    )
    .delete(
      '/workspaces/:workspace_id/connections/:connection_id',
      async ({ membership, params, query, set }) => {
        await connections.delete(membership, params.connection_id, query.drop_tables ?? false);
        set.status = 204;
      },
      {
        workspace: { permission: 'connections:delete', engine: true },
        params: connectionParams,
        query: t.Object({ drop_tables: t.Optional(t.Boolean({ default: false, description: 'Drop the tables its syncs wrote too' })) }),
        detail: operation({
          id: 'deleteConnection',
          tags,
          summary: 'Delete a connection (OWNER or ADMIN): its running sync stops, its schedule goes; its tables stay unless drop_tables=true',
          errors: [403, 404, 503],
          success: [{ status: 204, body: 'none' }],
        }),
      },
    );
}
