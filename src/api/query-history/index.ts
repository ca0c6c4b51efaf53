import { Elysia, t } from 'elysia';
import type { Services } from '../../runtime/services';
import { workspaceAccess } from '../plugins/workspace-access';
import { operation } from '../openapi/operation';
import { queryHistoryModels as m, queryHistoryQuery } from './model';

/** `GET /workspaces/{id}/queries`: every statement the workspace ran, kept as long as its plan says. */
export function queryHistoryRoutes(services: Pick<Services, 'auth' | 'workspaces' | 'queryHistory'>) {
  return new Elysia().use(workspaceAccess(services.auth.authenticator, services.workspaces.access)).get(
    '/workspaces/:workspace_id/queries',
    async ({ membership, query, set }) => {
      const { entries, total } = await services.queryHistory.list(membership.workspaceId, {
        kind: query.kind,
        status: query.status,
        callerId: query.caller_id,
        since: query.since === undefined ? undefined : new Date(query.since),
        until: query.until === undefined ? undefined : new Date(query.until),
        limit: query.limit ?? 50,
        offset: query.offset ?? 0,
      });
      set.headers['x-total-count'] = String(total);
      return entries;
    },
    {
      workspace: 'data:read',
      params: t.Object({ workspace_id: t.String({ format: 'uuid' }) }),
      query: queryHistoryQuery,
      response: t.Array(m.QueryHistoryEntry),
      detail: operation({
        id: 'listQueryHistory',
        tags: ['Query'],
        summary: 'Every statement the workspace ran, most recent first (VIEWER and above)',
        description:
          "Interactive queries, executes, jobs, saved queries, public charts, transforms and syncs, with their SQL as sent and as translated, who ran them and what they cost. Kept for the plan's `query_history_days` (7, 30, 90).",
        errors: [403],
        list: true,
      }),
    },
  );
}
