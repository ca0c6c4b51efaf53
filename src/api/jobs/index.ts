import { Elysia, t } from 'elysia';
import type { Services } from '../../runtime/services';
import { authentication } from '../plugins/authentication';
import { maxOffset, queryInteger } from '../query-params';
import { resultFormat } from '../query/model';
import { jsonText } from '../../query/formats/json-text';

const tags = ['Query jobs'];
const status = t.Union([t.Literal('pending'), t.Literal('running'), t.Literal('succeeded'), t.Literal('failed'), t.Literal('cancelled')]);
const format = resultFormat({
  description: 'How result pages are given: json (`rows`, arrays), objects (`data`) or csv (`csv`, RFC 4180 text with a header row)',
});
const jobParams = t.Object({ job_id: t.String({ format: 'uuid' }) });

const models = {
  JobSubmitRequest: t.Object({
    sql: t.String({ minLength: 1, maxLength: 1_000_000 }),
    workspace_id: t.String({ format: 'uuid' }),
    priority: t.Optional(t.Integer({ minimum: 1, maximum: 10, default: 5, description: '1 to 10; 10 runs first' })),
    format: t.Optional(format),
    force: t.Optional(t.Boolean({ default: false, description: "Run even when the estimate exceeds the plan's per-query scan limit" })),
  }),
  JobSubmitResponse: t.Object({ job_id: t.String({ format: 'uuid' }), status, priority: t.Integer(), submitted_at: t.String({ format: 'date-time' }) }),
  JobStatusResponse: t.Object({
    job_id: t.String({ format: 'uuid' }),
    workspace_id: t.String({ format: 'uuid' }),
    status,
    priority: t.Integer(),
    submitted_at: t.String({ format: 'date-time' }),
    started_at: t.Nullable(t.String({ format: 'date-time' })),
    finished_at: t.Nullable(t.String({ format: 'date-time' })),
    progress: t.Nullable(t.Number({ description: "DuckDB's progress while running, 0 to 1" })),
    error: t.Nullable(t.Object({ code: t.String(), message: t.String(), hint: t.Optional(t.String()) })),
    result: t.Nullable(
      t.Object({
        columns: t.Array(t.Object({ name: t.String(), type: t.String() })),
        row_count: t.Integer(),
        bytes_scanned: t.Integer(),
        cost_eur: t.Number(),
        cpu_ms: t.Integer(),
        offset: t.Integer(),
        limit: t.Integer(),
        rows: t.Optional(t.Nullable(t.Array(t.Array(t.Unknown()), { description: 'Format json; null once the result has expired' }))),
        data: t.Optional(t.Array(t.Record(t.String(), t.Unknown()), { description: 'Format objects' })),
        csv: t.Optional(t.String({ description: 'Format csv' })),
        expired: t.Boolean(),
        expires_at: t.Nullable(t.String({ format: 'date-time' })),
      }),
    ),
  }),
  CancelResponse: t.Object({ job_id: t.String({ format: 'uuid' }), status: t.Literal('cancelled') }),
};

/** `POST /query/jobs`, `GET /query/jobs/{id}` (status and a page of the result), `DELETE /query/jobs/{id}`. */
export function jobRoutes(services: Pick<Services, 'auth' | 'workspaces' | 'jobs'>) {
  return new Elysia({ prefix: '/query/jobs' })
    .use(authentication(services.auth.authenticator))
    .post(
      '',
      async ({ caller, body, headers, set }) => {
        const membership = await services.workspaces.access.authorize(caller.userId, body.workspace_id, 'data:read');
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
        auth: 'user',
        body: models.JobSubmitRequest,
        headers: t.Object({ 'idempotency-key': t.Optional(t.String({ minLength: 1, maxLength: 255 })) }),
        response: models.JobSubmitResponse,
        detail: { tags, summary: 'Submit a query to run as a durable job (counted against the rate limit)' },
      },
    )
    // Written with jsonText: a page's values can nest deeper than JSON.stringify reaches.
    .get('/:job_id', async ({ caller, params, query }) => {
      const view = await services.jobs.status(caller.userId, params.job_id, { offset: query.offset ?? 0, limit: query.limit ?? 1_000, format: query.format });
      return new Response(jsonText(view), { headers: { 'content-type': 'application/json' } });
    }, {
      auth: 'user',
      params: jobParams,
      query: t.Object({
        offset: t.Optional(queryInteger('offset', { minimum: 0, maximum: maxOffset, default: 0 })),
        limit: t.Optional(queryInteger('limit', { minimum: 1, maximum: 10_000, default: 1_000 })),
        format: t.Optional(resultFormat({ description: "Overrides the job's format for this page" })),
      }),
      response: models.JobStatusResponse,
      detail: { tags, summary: "A job's status, progress or error, and a page of its result" },
    })
    .delete('/:job_id', ({ caller, params }) => services.jobs.cancel(caller.userId, params.job_id), {
      auth: 'user',
      params: jobParams,
      response: models.CancelResponse,
      detail: { tags, summary: 'Cancel a pending job (409 JOB_NOT_PENDING otherwise)' },
    });
}
