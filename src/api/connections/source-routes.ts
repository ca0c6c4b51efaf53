import { Elysia, t } from 'elysia';
import type { Services } from '../../runtime/services';
import { workspaceAccess } from '../plugins/workspace-access';
import { operation } from '../openapi/operation';
import { tags } from './connection-routes';
import { connectionModels as m, connectionParams } from './model';

/** Asking a connection's source without syncing: test, streams, preview. */
export function sourceRoutes(services: Pick<Services, 'auth' | 'workspaces' | 'connections' | 'sourceProbes'>) {
  const { connections, sourceProbes } = services;
  return new Elysia()
    .use(workspaceAccess(services.auth.authenticator, services.workspaces.access))
    .post(
      '/workspaces/:workspace_id/connections/:connection_id/test',
      async ({ membership, params }) => sourceProbes.test(await connections.row(membership.workspaceId, params.connection_id)),
      {
        workspace: 'connections:read',
        params: connectionParams,
        response: m.TestConnectionResponse,
        detail: operation({
          id: 'testConnection',
          tags,
          summary: 'Connect to the source and say how it went',
          description: 'A failing source answers 200 with `success: false` and a message: host unreachable, authentication failed, no such database, TLS…',
          errors: [400, 403, 404],
        }),
      },
    )
    .get(
      '/workspaces/:workspace_id/connections/:connection_id/streams',
      async ({ membership, params, set }) => {
        const streams = await sourceProbes.streams(await connections.row(membership.workspaceId, params.connection_id));
        set.headers['x-total-count'] = String(streams.length);
        return streams;
      },
      {
        workspace: 'connections:read',
        params: connectionParams,
        response: t.Array(m.StreamInfo),
        detail: operation({
          id: 'listConnectionStreams',
          tags,
          summary: 'The source’s streams: columns, primary key, cursor candidates, sync modes',
          errors: [400, 403, 404],
          list: true,
        }),
      },
    )
    .post(
      '/workspaces/:workspace_id/connections/:connection_id/preview',
      async ({ membership, params, body }) =>
        sourceProbes.preview(await connections.row(membership.workspaceId, params.connection_id), body.stream, body.limit ?? 10),
      {
        workspace: 'connections:read',
        params: connectionParams,
        body: m.PreviewRequest,
        response: m.PreviewResponse,
        detail: operation({
          id: 'previewConnectionStream',
          tags,
          summary: 'A stream’s first rows, read from the source; nothing is written',
          errors: [400, 403, 404],
        }),
      },
    );
}
