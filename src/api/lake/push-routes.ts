import { Elysia, t } from 'elysia';
import type { Services } from '../../runtime/services';
import { workspaceAccess } from '../plugins/workspace-access';
import { ownerRouting } from '../plugins/owner-routing';
import { operation } from '../openapi/operation';
import { lakeModels as m } from './model';
import { asRequestErrors } from './write-errors';

const tags = ['Push'];
/** Its body limit is PUSH_MAX_BODY_BYTES rather than the standard one (see app.ts). */
export const pushRoutePath = '/workspaces/:workspace_id/push';

/** `POST /workspaces/{id}/push`: records into a lake table, created when missing, as one snapshot. */
export function pushRoutes(services: Pick<Services, 'auth' | 'workspaces' | 'push' | 'maintenance' | 'cluster' | 'logger'>) {
  return new Elysia().use(workspaceAccess(services.auth.authenticator, services.workspaces.access, ownerRouting(services))).post(
    pushRoutePath,
    async ({ membership, body, headers }) => {
      const result = await asRequestErrors(() => services.push.push(membership.workspaceId, body, headers['idempotency-key']));
      // Not awaited: the push has committed and answers; the check (and a run it starts) follows on its own.
      void services.maintenance.afterWrite(membership.workspaceId, [result.table], { trigger: 'after_push', lane: 'interactive' });
      return result;
    },
    {
      workspace: { permission: 'data:write', engine: true },
      params: t.Object({ workspace_id: t.String({ format: 'uuid' }) }),
      headers: t.Object({ 'idempotency-key': t.Optional(t.String({ minLength: 1, maxLength: 255, description: 'A retry with the same key and body returns the first answer without writing again' })) }),
      body: m.PushRequest,
      response: m.PushResponse,
      detail: operation({ id: 'pushRecords', tags, summary: 'Push records into a table (created when missing; MEMBER and above)', errors: [403, 409, 503] }),
    },
  );
}
