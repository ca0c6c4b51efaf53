import { Elysia } from 'elysia';
import type { Authenticator, Caller } from '../../auth/authenticator';
import type { Permission } from '../../workspaces/roles';
import type { WorkspaceAccess } from '../../workspaces/workspace-access';
import type { Membership } from '../../workspaces/workspace-view';
import { authenticate, securityOf, type AuthKind } from './authentication';

/**
 * Where a route names its workspace. `path`: the `workspace_id` path parameter, an id. `query` and
 * `body`: the named field, an id or a slug, optional: the caller's first workspace when absent.
 */
export type WorkspaceSource = { in: 'path' } | { in: 'query' | 'body'; field: string };

export interface WorkspaceRequirement {
  permission: Permission;
  from?: WorkspaceSource;
  /** Who may call: an access token (the default), an API key, or either. */
  auth?: AuthKind;
}

/**
 * `{ workspace: '<permission>' }` or `{ workspace: { permission, from, auth } }`: the one way a route
 * learns whose data it serves. Authenticates the caller, reads the workspace from where the route
 * names it, and resolves `caller` and `membership`, or answers 401 or 403 (not a member, or a role
 * without the permission; a workspace that does not exist is answered like one of others).
 */
export function workspaceAccess(authenticator: Authenticator, access: WorkspaceAccess) {
  return new Elysia({ name: 'workspace-access' }).macro({
    workspace: (requirement: Permission | WorkspaceRequirement) => {
      const { permission, from = { in: 'path' }, auth = 'user' } = typeof requirement === 'string' ? { permission: requirement } : requirement;
      return {
        detail: { security: securityOf[auth] },
        async resolve({ request, params, query, body }): Promise<{ caller: Caller; membership: Membership }> {
          const caller = await authenticate(authenticator, auth, request.headers);
          if (from.in === 'path') {
            const workspaceId = (params as Record<string, string | undefined>).workspace_id ?? '';
            return { caller, membership: await access.authorize(caller.userId, workspaceId, permission) };
          }
          const source = (from.in === 'query' ? query : body) as Record<string, unknown> | null | undefined;
          const named = source?.[from.field];
          return { caller, membership: await access.resolve(caller.userId, typeof named === 'string' ? named : undefined, permission) };
        },
      };
    },
  });
}
