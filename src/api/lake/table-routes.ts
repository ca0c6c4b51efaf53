import { Elysia, t } from 'elysia';
import type { Services } from '../../runtime/services';
import { parseTableName } from '../../engine/write/table-name';
import { requestErrorOf } from './write-errors';
import { workspaceAccess } from '../plugins/workspace-access';
import { operation } from '../openapi/operation';
import { lakeModels as m, tablePathParams, workspaceQuery } from './model';
import { queryInteger } from '../query-params';

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

/**
 * Table listing and metadata in the three forms of the spec: `/execute/tables` for API keys,
 * `/query/tables` for access tokens (workspace by id or slug in `?workspace=`), and under
 * `/workspaces/{id}/query/tables`.
 */
export function tableRoutes(services: Pick<Services, 'auth' | 'workspaces' | 'engine'>) {
  const { access } = services.workspaces;
  const { tables } = services.engine;
  return new Elysia()
    .use(workspaceAccess(services.auth.authenticator, access))
    .get(
      '/execute/tables',
      async ({ membership }) => ({ tables: await tables.list(membership.workspaceId) }),
      { workspace: { permission: 'data:read', from: byQuery, auth: 'api-key' }, query: workspaceQuery, response: m.TablesResponse, detail: operation({ id: 'listTablesWithApiKey', tags, summary: 'List tables (API key)', errors: [400, 403] }) },
    )
    .get(
      '/query/tables',
      async ({ membership }) => ({ tables: await tables.list(membership.workspaceId) }),
      { workspace: { permission: 'data:read', from: byQuery }, query: workspaceQuery, response: m.TablesResponse, detail: operation({ id: 'listTables', tags, summary: 'List tables with their metadata', errors: [400, 403] }) },
    )
    .get(
      '/query/tables/:table_name/metadata',
      ({ membership, params }) => tables.detail(membership.workspaceId, tableFromPath(params.table_name, ['path', 'table_name'])),
      {
        workspace: { permission: 'data:read', from: byQuery },
        query: workspaceQuery,
        params: t.Object({ table_name: tablePathParams.reference }),
        response: m.TableDetailResponse,
        detail: operation({ id: 'getTableMetadata', tags, summary: 'A table’s columns, size, key and snapshots', errors: [400, 403, 404] }),
      },
    )
    .delete(
      '/query/tables/:schema_name/:table_name',
      async ({ membership, params, set }) => {
        await tables.drop(membership.workspaceId, tableNameAt(`${params.schema_name}.${params.table_name}`, ['path', 'table_name']));
        set.status = 204;
      },
      {
        workspace: { permission: 'data:write', from: byQuery },
        query: workspaceQuery,
        params: t.Object({ schema_name: tablePathParams.namespace, table_name: tablePathParams.table }),
        detail: operation({ id: 'dropTable', tags, summary: 'Drop a table and purge its files (MEMBER and above)', errors: [400, 403, 404], success: [{ status: 204, body: 'none' }] }),
      },
    )
    .get('/workspaces/:workspace_id/query/tables', async ({ membership }) => ({ tables: await tables.list(membership.workspaceId) }), {
      workspace: 'data:read',
      params: workspaceParams,
      response: m.TablesResponse,
      detail: operation({ id: 'listWorkspaceTables', tags, summary: 'List the workspace’s tables', errors: [403] }),
    })
    .get(
      '/workspaces/:workspace_id/query/tables/:table_name/metadata',
      ({ membership, params }) => tables.detail(membership.workspaceId, tableFromPath(params.table_name, ['path', 'table_name'])),
      {
        workspace: 'data:read',
        params: t.Object({ workspace_id: t.String({ format: 'uuid' }), table_name: tablePathParams.reference }),
        response: m.TableDetailResponse,
        detail: operation({ id: 'getWorkspaceTableMetadata', tags, summary: 'A table’s columns, size, key and snapshots', errors: [403, 404] }),
      },
    )
    .get(
      '/workspaces/:workspace_id/query/tables/:table_name/snapshots',
      ({ membership, params, query }) => tables.snapshots(membership.workspaceId, tableFromPath(params.table_name, ['path', 'table_name']), query.limit ?? 50),
      {
        workspace: 'data:read',
        params: t.Object({ workspace_id: t.String({ format: 'uuid' }), table_name: tablePathParams.reference }),
        query: t.Object({ limit: t.Optional(queryInteger('limit', { minimum: 1, maximum: 200, default: 50 })) }),
        response: t.Array(m.TableSnapshot),
        detail: operation({
          id: 'listTableSnapshots',
          tags,
          summary: 'The snapshots that changed a table, newest first: each a time `FOR SYSTEM_TIME AS OF` reads it at',
          description: 'An extension of the interface, for time travel: the snapshot that created the table and each that wrote, removed or rewrote its rows (from the catalog; no data is read).',
          errors: [403, 404],
        }),
      },
    );
}
