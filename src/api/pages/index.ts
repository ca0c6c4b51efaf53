import { Elysia, t } from 'elysia';
import type { Services } from '../../runtime/services';
import { workspaceAccess } from '../plugins/workspace-access';
import { operation } from '../openapi/operation';
import { paginationQuery } from '../query-params';
import { chartModels } from '../charts/model';
import { pageModels as m, pageParams } from './model';

const tags = ['Pages'];
const workspaceParams = t.Object({ workspace_id: t.String({ format: 'uuid' }) });

/** Pages (dashboards): charts and markdown blocks in order; list, create, get, update, delete, publish, unpublish. */
export function pageRoutes(services: Pick<Services, 'auth' | 'workspaces' | 'sharing'>) {
  const { pages } = services.sharing;
  return new Elysia({ prefix: '/workspaces/:workspace_id/pages' })
    .use(workspaceAccess(services.auth.authenticator, services.workspaces.access))
    .get(
      '',
      async ({ membership, query, set }) => {
        const { items, total } = await pages.list(membership.workspaceId, { limit: query.limit ?? 50, offset: query.offset ?? 0 });
        set.headers['x-total-count'] = String(total);
        return items;
      },
      {
        workspace: 'data:read',
        params: workspaceParams,
        query: paginationQuery(50),
        response: t.Array(m.PageResponse),
        detail: operation({ id: 'listPages', tags, summary: "The workspace's pages, by name", errors: [403], list: true }),
      },
    )
    .post(
      '',
      async ({ membership, caller, body, set }) => {
        set.status = 201;
        return pages.create(membership.workspaceId, caller.userId, body);
      },
      {
        workspace: 'content:manage',
        params: workspaceParams,
        body: m.PageCreateRequest,
        response: { 201: m.PageResponse },
        detail: operation({ id: 'createPage', tags, summary: 'Create a page of charts and markdown blocks', errors: [403, 404, 409] }),
      },
    )
    .get('/:name', ({ membership, params }) => pages.get(membership.workspaceId, params.name), {
      workspace: 'data:read',
      params: pageParams,
      response: m.PageResponse,
      detail: operation({ id: 'getPage', tags, summary: 'One page, with its public link’s state', errors: [403, 404] }),
    })
    .patch('/:name', ({ membership, params, body }) => pages.update(membership.workspaceId, params.name, body), {
      workspace: 'content:manage',
      params: pageParams,
      body: m.PageUpdateRequest,
      response: m.PageResponse,
      detail: operation({ id: 'updatePage', tags, summary: 'Change a page; fields not given keep their values', errors: [403, 404] }),
    })
    .delete(
      '/:name',
      async ({ membership, params, set }) => {
        await pages.delete(membership.workspaceId, params.name);
        set.status = 204;
      },
      {
        workspace: 'content:manage',
        params: pageParams,
        detail: operation({
          id: 'deletePage',
          tags,
          summary: 'Delete a page and its public link',
          errors: [403, 404],
          success: [{ status: 204, body: 'none' }],
        }),
      },
    )
    .post(
      '/:name/publish',
      async ({ membership, params, body, set }) => {
        set.status = 201;
        return pages.publish(membership.workspaceId, params.name, { expiresAt: body?.expires_at, parameters: body?.parameters ?? {} });
      },
      {
        workspace: 'content:manage',
        params: pageParams,
        body: t.Optional(t.Nullable(chartModels.PublishRequest)),
        response: { 201: chartModels.PublishResponse },
        detail: operation({
          id: 'publishPage',
          tags,
          summary: 'Publish the page at /p/{token}; publishing again gives a new token and ends the old one',
          errors: [403, 404],
        }),
      },
    )
    .delete(
      '/:name/publish',
      async ({ membership, params, set }) => {
        await pages.unpublish(membership.workspaceId, params.name);
        set.status = 204;
      },
      {
        workspace: 'content:manage',
        params: pageParams,
        detail: operation({
          id: 'unpublishPage',
          tags,
          summary: 'Withdraw the public link at once (also when there is none)',
          errors: [403, 404],
          success: [{ status: 204, body: 'none' }],
        }),
      },
    );
}
