import { Elysia, t } from 'elysia';
import type { Services } from '../../runtime/services';
import { parseTableName } from '../../engine/write/table-name';
import { requestErrorOf } from './write-errors';
import { workspaceAccess } from '../plugins/workspace-access';
import { ownerRouting } from '../plugins/owner-routing';
import { operation } from '../openapi/operation';
import { paginationQuery } from '../query-params';
import { lakeModels as m, tablePathParams, workspaceQuery } from './model';

const tags = ['Tables'];
const workspaceParams = t.Object({ workspace_id: t.String({ format: 'uuid' }) });
/** The table endpoints without the workspace in their path name it in `?workspace=` (id or slug). */
const byQuery = { in: 'query', field: 'workspace' } as const;

/** `schema.table`, or a bare name for the default `main` namespace. */
function tableFromPath(text: string, loc: string[]) {
  return tableNameAt(text.includes('.') ? text : `main.${text}`, loc);
}

function tableNameAt(text: string, loc: string[]) {
  try {
    return parseTableName(text);
  } catch (error) {
    throw requestErrorOf(error, loc);
  }
}

function page(query: { limit?: number; offset?: number }) {
  return { limit: query.limit ?? 50, offset: query.offset ?? 0 };
}

/**
 * Table listing and metadata in the three forms of the spec: `/execute/tables` for API keys,
 * `/query/tables` for access tokens (workspace by id or slug in `?workspace=`), and under
 * `/workspaces/{id}/query/tables`.
 */
export function tableRoutes(services: Pick<Services, 'auth' | 'workspaces' | 'tables' | 'cluster' | 'logger'>) {
  const { access } = services.workspaces;
  const { tables } = services;
  return new Elysia()
    .use(workspaceAccess(services.auth.authenticator, access, ownerRouting(services)))
    .get('/execute/tables', async ({ membership }) => ({ tables: await tables.list(membership.workspaceId) }), {
      workspace: { permission: 'data:read', from: byQuery, auth: 'api-key', engine: true },
      query: workspaceQuery,
      response: m.TablesResponse,
      detail: operation({ id: 'listTablesWithApiKey', tags, summary: 'List tables (API key)', errors: [400, 403, 503] }),
    })
    .get('/query/tables', async ({ membership }) => ({ tables: await tables.list(membership.workspaceId) }), {
      workspace: { permission: 'data:read', from: byQuery, engine: true },
      query: workspaceQuery,
      response: m.TablesResponse,
      detail: operation({ id: 'listTables', tags, summary: 'List tables with their metadata', errors: [400, 403, 503] }),
    })
    .get(
      '/query/tables/:table_name/metadata',
      ({ membership, params }) => tables.detail(membership.workspaceId, tableFromPath(params.table_name, ['path', 'table_name'])),
      {
        workspace: { permission: 'data:read', from: byQuery, engine: true },
        query: workspaceQuery,
        params: t.Object({ table_name: tablePathParams.reference }),
        response: m.TableDetailResponse,
        detail: operation({ id: 'getTableMetadata', tags, summary: 'A table’s columns, size, key and snapshots', errors: [400, 403, 404, 503] }),
      },
    )
    .get(
      '/query/tables/:table_name/history',
      async ({ membership, params, query, set }) => {
        const { total, snapshots } = await tables.history(membership.workspaceId, tableFromPath(params.table_name, ['path', 'table_name']), page(query));
        set.headers['x-total-count'] = String(total);
        return snapshots;
      },
      {
        workspace: { permission: 'data:read', from: byQuery },
        query: t.Object({ ...workspaceQuery.properties, ...paginationQuery(50).properties }),
        params: t.Object({ table_name: tablePathParams.reference }),
        response: t.Array(m.TableSnapshot),
        detail: operation({
          id: 'getTableHistory',
          tags,
          summary: 'The snapshots that changed a table, newest first (an extension of the interface)',
          errors: [400, 403, 404],
          list: true,
        }),
      },
    )
    .delete(
      '/query/tables/:schema_name/:table_name',
      async ({ membership, params, set }) => {
        await tables.drop(membership.workspaceId, tableNameAt(`${params.schema_name}.${params.table_name}`, ['path', 'table_name']));
        set.status = 204;
      },
      {
        workspace: { permission: 'data:write', from: byQuery, engine: true },
        query: workspaceQuery,
        params: t.Object({ schema_name: tablePathParams.namespace, table_name: tablePathParams.table }),
        detail: operation({
          id: 'dropTable',
          tags,
          summary: 'Drop a table and purge its files (MEMBER and above)',
          errors: [400, 403, 404, 503],
          success: [{ status: 204, body: 'none' }],
        }),
      },
    )
    .get('/workspaces/:workspace_id/query/tables', async ({ membership }) => ({ tables: await tables.list(membership.workspaceId) }), {
      workspace: { permission: 'data:read', engine: true },
      params: workspaceParams,
      response: m.TablesResponse,
      detail: operation({ id: 'listWorkspaceTables', tags, summary: 'List the workspace’s tables', errors: [403, 503] }),
    })
    .get(
      '/workspaces/:workspace_id/query/tables/:table_name/metadata',
      ({ membership, params }) => tables.detail(membership.workspaceId, tableFromPath(params.table_name, ['path', 'table_name'])),
      {
        workspace: { permission: 'data:read', engine: true },
        params: t.Object({ workspace_id: t.String({ format: 'uuid' }), table_name: tablePathParams.reference }),
        response: m.TableDetailResponse,
        detail: operation({ id: 'getWorkspaceTableMetadata', tags, summary: 'A table’s columns, size, key and snapshots', errors: [403, 404, 503] }),
      },
    )
    .get(
      '/workspaces/:workspace_id/query/tables/:table_name/history',
      async ({ membership, params, query, set }) => {
        const { total, snapshots } = await tables.history(membership.workspaceId, tableFromPath(params.table_name, ['path', 'table_name']), page(query));
        set.headers['x-total-count'] = String(total);
        return snapshots;
      },
      {
        workspace: 'data:read',
        params: t.Object({ workspace_id: t.String({ format: 'uuid' }), table_name: tablePathParams.reference }),
        query: paginationQuery(50),
        response: t.Array(m.TableSnapshot),
        detail: operation({
          id: 'getWorkspaceTableHistory',
          tags,
          summary: 'The snapshots that changed a table, newest first (an extension of the interface)',
          errors: [403, 404],
          list: true,
        }),
      },
    );
}
