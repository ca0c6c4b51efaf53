import { Elysia, t } from 'elysia';
import type { Services } from '../../runtime/services';
import { workspaceAccess } from '../plugins/workspace-access';
import { ownerRouting } from '../plugins/owner-routing';
import { operation } from '../openapi/operation';
import { paginationQuery, queryInteger } from '../query-params';
import { dagRunParams, transformModels as m, transformParams, workspaceParams } from './model';

const tags = ['Transforms'];
const base = '/workspaces/:workspace_id/transforms';
// Beside the transforms, not under them: `transforms/<literal>/{id}` would be ambiguous with `transforms/{id}/runs`.
const history = '/workspaces/:workspace_id/transform-runs';

/** The transforms of a workspace: definitions, the DAG, runs and the DAG's schedule. */
export function transformRoutes(services: Pick<Services, 'auth' | 'workspaces' | 'transforms' | 'cluster' | 'logger'>) {
  const { definitions, runs, schedule } = services.transforms;
  return new Elysia()
    .use(workspaceAccess(services.auth.authenticator, services.workspaces.access, ownerRouting(services)))
    .post(
      base,
      async ({ membership, body, set }) => {
        set.status = 201;
        return definitions.create(membership.workspaceId, body);
      },
      {
        workspace: { permission: 'content:manage', engine: true },
        params: workspaceParams,
        body: m.CreateTransformRequest,
        response: { 201: m.TransformResponse },
        detail: operation({
          id: 'createTransform',
          tags,
          summary: 'Create a transform (MEMBER and above)',
          description:
            'The SQL is checked like a query; every table it reads exists or is another transform’s target. A cycle is 400 DAG_CYCLE, an unknown depends_on 404.',
          errors: [400, 403, 404, 409, 503],
          success: [{ status: 201 }],
          runsStatements: true,
        }),
      },
    )
    .get(
      base,
      async ({ membership, query, set }) => {
        const { items, total } = await definitions.list(membership.workspaceId, { limit: query.limit ?? 50, offset: query.offset ?? 0 });
        set.headers['x-total-count'] = String(total);
        return items;
      },
      {
        workspace: 'data:read',
        params: workspaceParams,
        query: paginationQuery(50),
        response: t.Array(m.TransformWithDepsResponse),
        detail: operation({ id: 'listTransforms', tags, summary: 'The transforms, with their dependencies and dependents', errors: [403], list: true }),
      },
    )
    .get(`${base}/dag`, ({ membership }) => definitions.dag(membership.workspaceId), {
      workspace: 'data:read',
      params: workspaceParams,
      response: m.DAGResponse,
      detail: operation({ id: 'getTransformDag', tags, summary: 'Nodes (with staleness), edges and a valid order', errors: [403] }),
    })
    .post(`${base}/run`, ({ membership, body }) => runs.runDag(membership.workspaceId, body ?? {}), {
      workspace: 'data:write',
      params: workspaceParams,
      body: t.Optional(t.Nullable(m.RunTransformsRequest)),
      response: m.RunTransformsResponse,
      detail: operation({
        id: 'runTransforms',
        tags,
        summary: 'Run transforms in dependency order as one DAG run (MEMBER and above)',
        description: 'Answers once the run finishes if that is within a few seconds, else with its current state (`running`) to poll through the runs.',
        errors: [400, 403, 404, 503],
        optionalBody: true,
      }),
    })
    .get(
      history,
      async ({ membership, query, set }) => {
        const { items, total } = await runs.listDagRuns(membership.workspaceId, { limit: query.limit ?? 20, offset: query.offset ?? 0 });
        set.headers['x-total-count'] = String(total);
        return items;
      },
      {
        workspace: 'data:read',
        params: workspaceParams,
        query: paginationQuery(20),
        response: t.Array(m.DagRunResponse),
        detail: operation({
          id: 'listTransformDagRuns',
          tags,
          summary: 'The run history: DAG runs (and runs of one transform), most recent first, each with its nodes’ runs (an extension of the interface)',
          errors: [403],
          list: true,
        }),
      },
    )
    .get(`${history}/:dag_run_id`, ({ membership, params }) => runs.getDagRun(membership.workspaceId, params.dag_run_id), {
      workspace: 'data:read',
      params: dagRunParams,
      response: m.DagRunResponse,
      detail: operation({
        id: 'getTransformDagRun',
        tags,
        summary: 'One DAG run with the state, timing and error of each node, live while it runs (an extension of the interface)',
        errors: [403, 404],
      }),
    })
    .get(`${base}/schedule`, ({ membership }) => schedule.get(membership.workspaceId), {
      workspace: 'data:read',
      params: workspaceParams,
      response: m.TransformScheduleResponse,
      detail: operation({ id: 'getTransformSchedule', tags, summary: 'The DAG’s schedule, if any (an extension of the interface)', errors: [403] }),
    })
    .put(`${base}/schedule`, ({ membership, body }) => schedule.put(membership.workspaceId, body.schedule), {
      workspace: 'content:manage',
      params: workspaceParams,
      body: m.TransformScheduleRequest,
      response: m.TransformScheduleResponse,
      detail: operation({
        id: 'setTransformSchedule',
        tags,
        summary: 'Run all transforms on a cron (UTC) or interval (an extension of the interface)',
        errors: [403, 503],
      }),
    })
    .delete(
      `${base}/schedule`,
      async ({ membership, set }) => {
        await schedule.remove(membership.workspaceId);
        set.status = 204;
      },
      {
        workspace: 'content:manage',
        params: workspaceParams,
        detail: operation({
          id: 'deleteTransformSchedule',
          tags,
          summary: 'Stop running the DAG on a schedule (an extension of the interface)',
          errors: [403, 503],
          success: [{ status: 204, body: 'none' }],
        }),
      },
    )
    .get(`${base}/:transform_id`, ({ membership, params }) => definitions.get(membership.workspaceId, params.transform_id), {
      workspace: 'data:read',
      params: transformParams,
      response: m.TransformWithDepsResponse,
      detail: operation({ id: 'getTransform', tags, summary: 'A transform with its dependencies and dependents', errors: [403, 404] }),
    })
    .patch(`${base}/:transform_id`, ({ membership, params, body }) => definitions.update(membership.workspaceId, params.transform_id, body), {
      workspace: { permission: 'content:manage', engine: true },
      params: transformParams,
      body: m.UpdateTransformRequest,
      response: m.TransformResponse,
      detail: operation({
        id: 'updateTransform',
        tags,
        summary: 'Change a transform (checked as at creation)',
        errors: [400, 403, 404, 409, 503],
        runsStatements: true,
      }),
    })
    .delete(
      `${base}/:transform_id`,
      async ({ membership, params, query, set }) => {
        await definitions.delete(membership.workspaceId, params.transform_id, query.cascade === 'true');
        set.status = 204;
      },
      {
        workspace: 'content:manage',
        params: transformParams,
        query: t.Object({
          cascade: t.Optional(t.Union([t.Literal('true'), t.Literal('false')], { description: 'Delete the transforms that depend on it too' })),
        }),
        detail: operation({
          id: 'deleteTransform',
          tags,
          summary: 'Delete a transform (409 while others depend on it, unless cascade=true); its table stays',
          errors: [403, 404, 409],
          success: [{ status: 204, body: 'none' }],
        }),
      },
    )
    .post(`${base}/:transform_id/run`, ({ membership, params }) => runs.runOne(membership.workspaceId, params.transform_id), {
      workspace: 'data:write',
      params: transformParams,
      response: m.TransformRunResponse,
      detail: operation({
        id: 'runTransform',
        tags,
        summary: 'Run this transform only, not its dependencies (MEMBER and above)',
        description: 'Answers once the run finishes if that is within a few seconds, else with its current state to poll through the runs.',
        errors: [403, 404, 503],
      }),
    })
    .get(
      `${base}/:transform_id/runs`,
      async ({ membership, params, query, set }) => {
        const { items, total } = await runs.listRuns(membership.workspaceId, params.transform_id, query.limit ?? 10);
        set.headers['x-total-count'] = String(total);
        return items;
      },
      {
        workspace: 'data:read',
        params: transformParams,
        query: t.Object({ limit: t.Optional(queryInteger('limit', { minimum: 1, maximum: 200, default: 10 })) }),
        response: t.Array(m.TransformRunResponse),
        detail: operation({ id: 'listTransformRuns', tags, summary: 'Recent runs of a transform, most recent first', errors: [403, 404], list: true }),
      },
    );
}
