import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema';

type Schemas = components['schemas'];
export type SavedQuery = Schemas['SavedQueryResponse'];
export type ParameterDefinition = Schemas['ParameterDefinition'];
export type ParameterValues = Schemas['ParameterValues'];
export type Chart = Schemas['ChartResponse'];
export type ChartType = Schemas['ChartType'];
export type ChartConfig = Schemas['ChartConfig'];
export type Page = Schemas['PageResponse'];
export type PageBlock = Schemas['PageBlock'];
export type Published = Schemas['PublishResponse'];

/** A result as the query endpoints answer it in the `json` format. */
export type QueryResult = Schemas['QueryResponse'];

function rowsOf(answer: unknown): QueryResult {
  if (typeof answer !== 'object' || answer === null || !('rows' in answer)) throw new Error('The query did not answer rows');
  return answer as QueryResult;
}

const inWorkspace = (workspaceId: string) => ({ path: { workspace_id: workspaceId } });
export const named = (workspaceId: string, name: string) => ({ path: { workspace_id: workspaceId, name } });

export const loadSavedQueries = (workspaceId: string) =>
  unwrap(api.GET('/api/v1/workspaces/{workspace_id}/saved-queries', { params: { ...inWorkspace(workspaceId), query: { limit: 200 } } }));
export const loadSavedQuery = (workspaceId: string, name: string) =>
  unwrap(api.GET('/api/v1/workspaces/{workspace_id}/saved-queries/{name}', { params: named(workspaceId, name) }));
export const loadCharts = (workspaceId: string) =>
  unwrap(api.GET('/api/v1/workspaces/{workspace_id}/charts', { params: { ...inWorkspace(workspaceId), query: { limit: 200 } } }));
export const loadChart = (workspaceId: string, name: string) =>
  unwrap(api.GET('/api/v1/workspaces/{workspace_id}/charts/{name}', { params: named(workspaceId, name) }));

/** A saved query run with values for its parameters. */
export async function runSavedQuery(workspaceId: string, name: string, parameters: ParameterValues): Promise<QueryResult> {
  return rowsOf(
    await unwrap(
      api.POST('/api/v1/workspaces/{workspace_id}/saved-queries/{name}/run', { params: named(workspaceId, name), body: { parameters, format: 'json' } }),
    ),
  );
}

/** SQL of the workspace run as a query (nothing is written). */
export async function runSql(workspaceId: string, sql: string): Promise<QueryResult> {
  return rowsOf(await unwrap(api.POST('/api/v1/workspaces/{workspace_id}/query', { params: inWorkspace(workspaceId), body: { sql, format: 'json' } })));
}
