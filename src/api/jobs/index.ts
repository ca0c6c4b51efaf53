import { Elysia, t } from 'elysia';
import type { Services } from '../../runtime/services';
import { jsonText } from '../../query/formats/json-text';
import { authentication } from '../plugins/authentication';
import { workspaceAccess } from '../plugins/workspace-access';
import { ownerRouting } from '../plugins/owner-routing';
import { operation } from '../openapi/operation';
import { maxOffset, paginationQuery, queryInteger } from '../query-params';
import { queryModels } from '../query/model';
import { jobModels as m, jobParams } from './model';

const tags = ['Query jobs'];

/**
 * `POST /query/jobs`, `GET /query/jobs` (a workspace's jobs), `GET /query/jobs/{id}` (status and a
 * page of the result), `DELETE /query/jobs/{id}` (a pending job) and `POST /query/jobs/{id}/cancel`
 * (a pending or running one). Among API replicas any of them answers these from the job's record and
 * Temporal; only a page of a result needs the workspace's engine, and is read on its owner.
 */
export function jobRoutes(services: Pick<Services, 'auth' | 'workspaces' | 'jobs' | 'cluster' | 'logger'>) {
  const routing = ownerRouting(services);
  return new Elysia({ prefix: '/query/jobs' })
    .use(authentication(services.auth.authenticator))
    .use(workspaceAccess(services.auth.authenticator, services.workspaces.access))
    .post(
      '',
      async ({ caller, membership, body, headers, set }) => {
        const { job, headers: rateHeaders } = await services.jobs.submit(
          caller.userId,
          membership.workspaceId,
          { sql: body.sql, priority: body.priority ?? 5, force: body.force ?? false, format: body.format ?? 'json' },
          headers['idempotency-key'],
        );
        Object.assign(set.headers, rateHeaders);
        return job;
      },
      {
        workspace: { permission: 'data:read', from: { in: 'body', field: 'workspace_id' } },
        body: m.JobSubmitRequest,
        headers: t.Object({
          'idempotency-key': t.Optional(t.String({ minLength: 1, maxLength: 255, description: 'A retry with the same key and body returns the same job' })),
        }),
        response: m.JobSubmitResponse,
        detail: operation({
          id: 'submitQueryJob',
          tags,
          summary: 'Submit a query to run as a durable job (counted against the rate limit)',
          errors: [400, 403, 409, 429, 503],
          rateLimited: true,
        }),
      },
    )
    .get(
      '',
      async ({ membership, query, set }) => {
        const { jobs, total } = await services.jobs.list(membership.workspaceId, { status: query.status, limit: query.limit ?? 50, offset: query.offset ?? 0 });
        set.headers['x-total-count'] = String(total);
        return jobs;
      },
      {
        workspace: { permission: 'data:read', from: { in: 'query', field: 'workspace_id' } },
        query: t.Object({
          workspace_id: t.Optional(t.String({ format: 'uuid', description: 'Default: your first workspace' })),
          status: t.Optional(m.JobStatus),
          ...paginationQuery(50).properties,
        }),
        response: t.Array(m.JobStatusResponse),
        detail: operation({ id: 'listQueryJobs', tags, summary: "A workspace's jobs, most recent first, without their rows", errors: [403], list: true }),
      },
    )
    .get(
      '/:job_id',
      async ({ caller, params, query, request }) => {
        const found = await services.jobs.find(caller.userId, params.job_id);
        // Its rows are read by the workspace's query instance: on its owner among API replicas.
        if (services.jobs.readsResult(found.job)) {
          const answer = await routing.route(request, found.job.workspace_id, { caller, membership: found.membership });
          if (answer) return answer;
        }
        const view = await services.jobs.status(found, { offset: query.offset ?? 0, limit: query.limit ?? 1_000, format: query.format });
        // Written with jsonText: a page's values can nest deeper than JSON.stringify reaches.
        return new Response(jsonText(view), { headers: { 'content-type': 'application/json' } });
      },
      {
        auth: 'user',
        params: jobParams,
        query: t.Object({
          offset: t.Optional(queryInteger('offset', { minimum: 0, maximum: maxOffset, default: 0 })),
          limit: t.Optional(queryInteger('limit', { minimum: 1, maximum: 10_000, default: 1_000 })),
          format: t.Optional(queryModels.ResultFormat),
        }),
        response: m.JobStatusResponse,
        detail: operation({
          id: 'getQueryJob',
          tags,
          summary: "A job's status, progress or error, and a page of its result",
          description: "`format` overrides the job's own format for this page.",
          errors: [404],
        }),
      },
    )
    .delete('/:job_id', ({ caller, params }) => services.jobs.cancelPending(caller.userId, params.job_id), {
      auth: 'user',
      params: jobParams,
      response: m.CancelJobResponse,
      detail: operation({ id: 'cancelQueryJob', tags, summary: 'Cancel a pending job (409 JOB_NOT_PENDING otherwise)', errors: [403, 404, 409] }),
    })
    .post('/:job_id/cancel', ({ caller, params }) => services.jobs.cancel(caller.userId, params.job_id), {
      auth: 'user',
      params: jobParams,
      response: m.CancelJobResponse,
      detail: operation({
        id: 'stopQueryJob',
        tags,
        summary: 'Cancel a pending or running job (409 JOB_FINISHED once it has ended)',
        description:
          'A running query is interrupted within a second and billed for what it ran. Whoever submitted the job, or an owner or admin of the workspace, may cancel it.',
        errors: [403, 404, 409],
      }),
    });
}
