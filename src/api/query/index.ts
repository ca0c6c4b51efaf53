import { Elysia, t } from 'elysia';
import type { Services } from '../../runtime/services';
import type { QueryCaller } from '../../query/query-service';
import { toResponse } from './query-response';
import type { ResultFormat } from '../../query/formats/encoded-result';
import type { Caller } from '../../auth/authenticator';
import { workspaceAccess } from '../plugins/workspace-access';
import { ownerRouting } from '../plugins/owner-routing';
import { requestMeta } from '../plugins/request-context';
import { operation, type OperationDoc } from '../openapi/operation';
import { queryModels as m } from './model';
import { jobModels } from '../jobs/model';

const tags = ['Query'];
const result = t.Union([m.QueryResponse, m.ObjectsResponse, m.EstimateOnlyResponse]);
const resultResponses = { 200: result };
const resultOrJobResponses = { 200: result, 202: jobModels.JobSubmitResponse };
/** What every query operation answers: a result in its format (or an estimate), and the errors of a query. */
const queryOperation = (id: string, summary: string, errors: OperationDoc['errors'], handsOver = false) =>
  operation({
    id,
    tags,
    summary,
    errors,
    rateLimited: true,
    success: [
      { status: 200, body: 'json-or-csv' },
      ...(handsOver
        ? [{ status: 202 as const, description: 'Still running after `async_after_ms`: it continues as this job (follow it at /query/jobs/{job_id})' }]
        : []),
    ],
  });

type QueryBody = { sql: string; format?: ResultFormat; estimate_only?: boolean; force?: boolean; async_after_ms?: number };

/** The synchronous query endpoints: `/execute` (API key), `/query` and `/workspaces/{id}/query` (access token). */
export function queryRoutes(services: Pick<Services, 'auth' | 'workspaces' | 'queries' | 'queriesAsJobs' | 'cluster' | 'logger'>) {
  const { access } = services.workspaces;
  const run = async (request: Request, caller: Caller, kind: QueryCaller['kind'], workspaceId: string, body: QueryBody) => {
    if (body.async_after_ms !== undefined && !body.estimate_only) return runOrHandOver(caller, workspaceId, body, body.async_after_ms);
    return toResponse(
      await services.queries.answer(
        { userId: caller.userId, apiKeyId: caller.via === 'api_key' ? caller.apiKeyId : null, kind },
        {
          workspaceId,
          sql: body.sql,
          format: body.format ?? 'json',
          estimateOnly: body.estimate_only ?? false,
          force: body.force ?? false,
          // The time limit counts from the request's arrival.
          startedAt: requestMeta(request).startedAt,
        },
      ),
    );
  };
  const runOrHandOver = async (caller: Caller, workspaceId: string, body: QueryBody, asyncAfterMs: number) => {
    const answer = await services.queriesAsJobs.answer(
      caller.userId,
      workspaceId,
      { sql: body.sql, format: body.format ?? 'json', force: body.force ?? false },
      asyncAfterMs,
    );
    if (answer.kind === 'result') return toResponse(answer);
    return Response.json(answer.job, { status: 202, headers: answer.headers });
  };
  return new Elysia()
    .use(workspaceAccess(services.auth.authenticator, access, ownerRouting(services)))
    .post('/execute', ({ request, caller, membership, body }) => run(request, caller, 'execute', membership.workspaceId, body), {
      workspace: { permission: 'data:read', from: { in: 'body', field: 'workspace_id' }, auth: 'api-key', engine: true },
      body: m.ExecuteRequest,
      response: resultResponses,
      detail: queryOperation('executeQuery', 'Run a query with an API key (json, objects or csv)', [400, 403, 408, 429, 503]),
    })
    .post('/query', ({ request, caller, membership, body }) => run(request, caller, 'query', membership.workspaceId, body), {
      workspace: { permission: 'data:read', from: { in: 'body', field: 'workspace_id' }, engine: true },
      body: m.QueryRequest,
      response: resultOrJobResponses,
      detail: queryOperation(
        'runQuery',
        'Run a query, or estimate its cost; with `async_after_ms`, a query still running then becomes a job (202)',
        [400, 403, 408, 429, 503],
        true,
      ),
    })
    .post('/workspaces/:workspace_id/query', ({ request, caller, membership, body }) => run(request, caller, 'query', membership.workspaceId, body), {
      workspace: { permission: 'data:read', engine: true },
      params: t.Object({ workspace_id: t.String({ format: 'uuid' }) }),
      body: m.WorkspaceQueryRequest,
      response: resultOrJobResponses,
      detail: queryOperation(
        'runWorkspaceQuery',
        'Run a query in this workspace, or estimate its cost; with `async_after_ms`, a query still running then becomes a job (202)',
        [400, 403, 408, 429, 503],
        true,
      ),
    })
    .get(
      '/query/rate-limit',
      async ({ membership }) => {
        const state = await services.queries.rateLimit(membership.workspaceId);
        return { plan: state.plan, limit: state.limit, used: state.used, remaining: state.remaining, reset_at: state.resetAt.toISOString() };
      },
      {
        workspace: { permission: 'data:read', from: { in: 'query', field: 'workspace_id' } },
        query: t.Object({ workspace_id: t.String({ format: 'uuid' }) }),
        response: m.RateLimitInfo,
        detail: operation({ id: 'getRateLimit', tags, summary: "The workspace's query rate limit and how much of it the last minute used", errors: [403] }),
      },
    );
}
