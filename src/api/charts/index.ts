import { Elysia, t } from 'elysia';
import type { Services } from '../../runtime/services';
import { workspaceAccess } from '../plugins/workspace-access';
import { ownerRouting } from '../plugins/owner-routing';
import { operation } from '../openapi/operation';
import { paginationQuery } from '../query-params';
import { chartModels as m, chartParams } from './model';

const tags = ['Charts'];
const workspaceParams = t.Object({ workspace_id: t.String({ format: 'uuid' }) });

/** Charts over SQL or a saved query: list, create, get, update, delete, publish, unpublish. */
export function chartRoutes(services: Pick<Services, 'auth' | 'workspaces' | 'sharing' | 'cluster' | 'logger'>) {
  const { charts } = services.sharing;
  return new Elysia({ prefix: '/workspaces/:workspace_id/charts' })
    .use(workspaceAccess(services.auth.authenticator, services.workspaces.access, ownerRouting(services)))
    .get(
      '',
      async ({ membership, query, set }) => {
        const { items, total } = await charts.list(membership.workspaceId, { limit: query.limit ?? 50, offset: query.offset ?? 0 });
        set.headers['x-total-count'] = String(total);
        return items;
      },
      {
        workspace: 'data:read',
        params: workspaceParams,
        query: paginationQuery(50),
        response: t.Array(m.ChartResponse),
        detail: operation({ id: 'listCharts', tags, summary: "The workspace's charts, by name", errors: [403], list: true }),
      },
    )
    .post(
      '',
      async ({ membership, caller, body, set }) => {
        set.status = 201;
        return charts.create(membership.workspaceId, caller.userId, body);
      },
      {
        workspace: { permission: 'content:manage', engine: true },
        params: workspaceParams,
        body: m.ChartCreateRequest,
        response: { 201: m.ChartResponse },
        detail: operation({
          id: 'createChart',
          tags,
          summary: 'Create a chart; its query is planned (not run) and the config must name columns of its result',
          errors: [400, 403, 404, 409, 503],
          runsStatements: true,
        }),
      },
    )
    .get('/:name', ({ membership, params }) => charts.get(membership.workspaceId, params.name), {
      workspace: 'data:read',
      params: chartParams,
      response: m.ChartResponse,
      detail: operation({ id: 'getChart', tags, summary: 'One chart, with its public link’s state', errors: [403, 404] }),
    })
    .patch('/:name', ({ membership, params, body }) => charts.update(membership.workspaceId, params.name, body), {
      workspace: { permission: 'content:manage', engine: true },
      params: chartParams,
      body: m.ChartUpdateRequest,
      response: m.ChartResponse,
      detail: operation({
        id: 'updateChart',
        tags,
        summary: 'Change a chart (planned again); fields not given keep their values',
        errors: [400, 403, 404, 503],
        runsStatements: true,
      }),
    })
    .delete(
      '/:name',
      async ({ membership, params, set }) => {
        await charts.delete(membership.workspaceId, params.name);
        set.status = 204;
      },
      {
        workspace: 'content:manage',
        params: chartParams,
        detail: operation({
          id: 'deleteChart',
          tags,
          summary: 'Delete a chart and its public link (409 while pages show it)',
          errors: [403, 404, 409],
          success: [{ status: 204, body: 'none' }],
        }),
      },
    )
    .post(
      '/:name/publish',
      async ({ membership, params, body, set }) => {
        set.status = 201;
        return charts.publish(membership.workspaceId, params.name, { expiresAt: body?.expires_at, parameters: body?.parameters ?? {} });
      },
      {
        workspace: 'content:manage',
        params: chartParams,
        body: t.Optional(t.Nullable(m.PublishRequest)),
        response: { 201: m.PublishResponse },
        detail: operation({
          id: 'publishChart',
          tags,
          summary: 'Publish the chart at /c/{token}; publishing again gives a new token and ends the old one',
          errors: [403, 404],
        }),
      },
    )
    .delete(
      '/:name/publish',
      async ({ membership, params, set }) => {
        await charts.unpublish(membership.workspaceId, params.name);
        set.status = 204;
      },
      {
        workspace: 'content:manage',
        params: chartParams,
        detail: operation({
          id: 'unpublishChart',
          tags,
          summary: 'Withdraw the public link at once (also when there is none)',
          errors: [403, 404],
          success: [{ status: 204, body: 'none' }],
        }),
      },
    );
}
