import { Elysia, t } from 'elysia';
import type { Services } from '../../runtime/services';
import { workspaceAccess } from '../plugins/workspace-access';
import { ownerRouting } from '../plugins/owner-routing';
import { operation } from '../openapi/operation';
import { paginationQuery } from '../query-params';
import { queryModels } from '../query/model';
import { toResponse } from '../query/query-response';
import { savedQueryModels as m, savedQueryParams } from './model';

const tags = ['Saved queries'];
const workspaceParams = t.Object({ workspace_id: t.String({ format: 'uuid' }) });

/** Saved queries with typed `{{name}}` parameters: list, create, get, delete (VIEWER reads and runs, MEMBER and above write). */
export function savedQueryRoutes(services: Pick<Services, 'auth' | 'workspaces' | 'sharing' | 'cluster' | 'logger'>) {
  const { savedQueries } = services.sharing;
  return new Elysia({ prefix: '/workspaces/:workspace_id/saved-queries' })
    .use(workspaceAccess(services.auth.authenticator, services.workspaces.access, ownerRouting(services)))
    .get(
      '',
      async ({ membership, query, set }) => {
        const { items, total } = await savedQueries.list(membership.workspaceId, { limit: query.limit ?? 50, offset: query.offset ?? 0 });
        set.headers['x-total-count'] = String(total);
        return items;
      },
      {
        workspace: 'data:read',
        params: workspaceParams,
        query: paginationQuery(50),
        response: t.Array(m.SavedQueryResponse),
        detail: operation({ id: 'listSavedQueries', tags, summary: "The workspace's saved queries, by name", errors: [403], list: true }),
      },
    )
    .post(
      '',
      async ({ membership, caller, body, set }) => {
        set.status = 201;
        return savedQueries.create(membership.workspaceId, caller.userId, body);
      },
      {
        workspace: { permission: 'content:manage', engine: true },
        params: workspaceParams,
        body: m.SavedQueryCreateRequest,
        response: { 201: m.SavedQueryResponse },
        detail: operation({
          id: 'createSavedQuery',
          tags,
          summary: 'Save a query with typed parameters (planned, not run: its SQL must compile)',
          errors: [400, 403, 409, 503],
          runsStatements: true,
        }),
      },
    )
    .get('/:name', ({ membership, params }) => savedQueries.get(membership.workspaceId, params.name), {
      workspace: 'data:read',
      params: savedQueryParams,
      response: m.SavedQueryResponse,
      detail: operation({ id: 'getSavedQuery', tags, summary: 'One saved query', errors: [403, 404] }),
    })
    .delete(
      '/:name',
      async ({ membership, params, set }) => {
        await savedQueries.delete(membership.workspaceId, params.name);
        set.status = 204;
      },
      {
        workspace: 'content:manage',
        params: savedQueryParams,
        detail: operation({
          id: 'deleteSavedQuery',
          tags,
          summary: 'Delete a saved query (409 while charts read it)',
          errors: [403, 404, 409],
          success: [{ status: 204, body: 'none' }],
        }),
      },
    )
    .post(
      '/:name/run',
      async ({ membership, caller, params, body }) =>
        toResponse(
          await savedQueries.run(
            { userId: caller.userId, apiKeyId: null, kind: 'saved_query' },
            membership.workspaceId,
            params.name,
            body?.parameters ?? {},
            body?.format ?? 'json',
          ),
        ),
      {
        workspace: { permission: 'data:read', engine: true },
        params: savedQueryParams,
        body: t.Optional(t.Nullable(m.SavedQueryRunRequest)),
        response: { 200: t.Union([queryModels.QueryResponse, queryModels.ObjectsResponse]) },
        detail: operation({
          id: 'runSavedQuery',
          tags,
          summary: 'Run a saved query with parameter values (answers like a query: json, objects or csv)',
          description:
            'Each value is bound to its `{{name}}` marker as its declared type, never written into the SQL. A value that does not fit, a missing required one or an unknown name is a 422 at `["body", "parameters", name]`.',
          errors: [400, 403, 404, 408, 429, 503],
          rateLimited: true,
          success: [{ status: 200, body: 'json-or-csv' }],
        }),
      },
    );
}
