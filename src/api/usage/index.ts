import { Elysia, t } from 'elysia';
import type { Services } from '../../runtime/services';
import { workspaceAccess } from '../plugins/workspace-access';
import { ownerRouting } from '../plugins/owner-routing';
import { operation } from '../openapi/operation';
import { ExportFormat, periodQuery, usageModels as m, usageParams } from './model';

const tags = ['Usage'];

/** A workspace's usage: summary, daily list, current period, dashboard and the export of its records. */
export function usageRoutes(services: Pick<Services, 'auth' | 'workspaces' | 'usage' | 'cluster' | 'logger'>) {
  const { reports, dashboards, exports } = services.usage;
  return new Elysia({ prefix: '/workspaces/:workspace_id/usage' })
    .use(workspaceAccess(services.auth.authenticator, services.workspaces.access, ownerRouting(services)))
    .get('', ({ membership, query }) => reports.summary(membership.workspaceId, query), {
      workspace: 'usage:read',
      params: usageParams,
      query: t.Object(periodQuery),
      response: m.UsageSummaryResponse,
      detail: operation({
        id: 'getUsageSummary',
        tags,
        summary: 'Usage over a period (the current calendar month by default)',
        description: "A missing bound comes from the other: the first day of end_date's month, or the last day of start_date's month. Days are UTC.",
        errors: [403],
      }),
    })
    .get(
      '/daily',
      async ({ membership, query, set }) => {
        const days = await reports.daily(membership.workspaceId, query);
        set.headers['x-total-count'] = String(days.length);
        return days;
      },
      {
        workspace: 'usage:read',
        params: usageParams,
        query: t.Object(periodQuery),
        response: t.Array(m.DailyUsageResponse),
        detail: operation({
          id: 'listDailyUsage',
          tags,
          summary: 'Usage per day (the last 30 days by default), zeros on days without any',
          description: 'A missing bound is 30 days from the other; at most 366 days per request. Days are UTC.',
          errors: [403],
          list: true,
        }),
      },
    )
    .get('/current', ({ membership }) => reports.current(membership.workspaceId), {
      workspace: 'usage:read',
      params: usageParams,
      response: m.CurrentPeriodUsageResponse,
      detail: operation({
        id: 'getCurrentPeriodUsage',
        tags,
        summary: 'Usage of the current billing period, the calendar month (UTC), against the plan',
        errors: [403],
      }),
    })
    .get('/dashboard', ({ membership }) => dashboards.dashboard(membership.workspaceId), {
      workspace: { permission: 'usage:read', engine: true },
      params: usageParams,
      response: m.UsageDashboardResponse,
      detail: operation({
        id: 'getUsageDashboard',
        tags,
        summary: 'The month so far: queries, storage and connectors against the plan, and the cost',
        errors: [403, 503],
      }),
    })
    .get(
      '/export',
      ({ membership, query }) => {
        const format = query.format ?? 'csv';
        const exported = exports.open(membership.workspaceId, query, format);
        const pieces = exported.pieces;
        const encoder = new TextEncoder();
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            const next = await pieces.next();
            if (next.done) controller.close();
            else controller.enqueue(encoder.encode(next.value));
          },
          async cancel() {
            await pieces.return(undefined);
          },
        });
        return new Response(body, { headers: { 'content-type': exported.contentType, 'content-disposition': `attachment; filename="${exported.fileName}"` } });
      },
      {
        workspace: 'usage:read',
        params: usageParams,
        query: t.Object({ ...periodQuery, format: t.Optional(ExportFormat) }),
        response: t.Array(m.UsageRecord),
        detail: operation({
          id: 'exportUsage',
          tags,
          summary: 'The individual usage records of a period (the current calendar month by default), as CSV or JSON, streamed',
          description: 'Records in time order. The period rules are those of the summary.',
          errors: [403],
          success: [{ status: 200, body: 'json-or-csv', description: 'The records, as CSV or as a JSON array, streamed' }],
        }),
      },
    );
}
