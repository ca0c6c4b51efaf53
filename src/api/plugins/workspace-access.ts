import { Elysia } from 'elysia';
import type { Authenticator } from '../../auth/authenticator';
import type { Permission } from '../../workspaces/roles';
import type { WorkspaceAccess } from '../../workspaces/workspace-access';

/**
 * `{ workspace: '<permission>' }` on a route with a `workspace_id` path parameter: authenticates the
 * caller, then resolves `membership` or answers 403 (not a member, or a role without the permission).
 */
export function workspaceAccess(authenticator: Authenticator, access: WorkspaceAccess) {
  return new Elysia({ name: 'workspace-access' }).macro({
    workspace: (permission: Permission) => ({
      detail: { security: [{ bearer: [] }] },
      async resolve({ request, params }) {
        const caller = await authenticator.user(request.headers.get('authorization') ?? undefined);
        const workspaceId = (params as Record<string, string | undefined>).workspace_id ?? '';
        return { caller, membership: await access.authorize(caller.userId, workspaceId, permission) };
      },
    }),
  });
}
