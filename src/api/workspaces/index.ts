import { Elysia, t } from 'elysia';
import type { Authenticator } from '../../auth/authenticator';
import type { WorkspaceServices } from '../../workspaces/workspace-services';
import { authentication } from '../plugins/authentication';
import { workspaceAccess } from '../plugins/workspace-access';
import { operation } from '../openapi/operation';
import { paginationQuery } from '../query-params';
import { memberParams, workspaceModels as m, workspaceParams } from './model';

const tags = ['Workspaces'];

export function workspaceRoutes(authenticator: Authenticator, workspaces: WorkspaceServices) {
  return new Elysia({ prefix: '/workspaces' })
    .use(authentication(authenticator))
    .use(workspaceAccess(authenticator, workspaces.access))
    .get(
      '',
      async ({ caller, set }) => {
        const list = await workspaces.workspaces.list(caller.userId);
        set.headers['x-total-count'] = String(list.length);
        return list;
      },
      {
        auth: 'user',
        response: t.Array(m.WorkspaceWithRoleResponse),
        detail: operation({ id: 'listWorkspaces', tags, summary: "The caller's workspaces, with the caller's role", list: true }),
      },
    )
    .post(
      '',
      async ({ caller, body, set }) => {
        set.status = 201;
        return workspaces.workspaces.create(caller.userId, body);
      },
      {
        auth: 'user',
        body: m.WorkspaceCreateRequest,
        response: { 201: m.WorkspaceResponse },
        detail: operation({ id: 'createWorkspace', tags, summary: 'Create a workspace; the caller becomes its OWNER', errors: [409] }),
      },
    )
    .get('/:workspace_id', ({ membership }) => ({ ...membership.workspace, role: membership.role }), {
      workspace: 'workspace:read',
      params: workspaceParams,
      response: m.WorkspaceWithRoleResponse,
      detail: operation({ id: 'getWorkspace', tags, summary: 'One workspace, with the caller’s role', errors: [403] }),
    })
    .delete(
      '/:workspace_id',
      async ({ membership, set }) => {
        await workspaces.workspaces.delete(membership);
        set.status = 204;
      },
      {
        workspace: 'workspace:delete',
        params: workspaceParams,
        detail: operation({
          id: 'deleteWorkspace',
          tags,
          summary: 'Delete the workspace and all its data (OWNER)',
          errors: [403, 503],
          success: [{ status: 204, body: 'none' }],
        }),
      },
    )
    .get(
      '/:workspace_id/members',
      async ({ membership, query, set }) => {
        const { members, total } = await workspaces.members.list(membership.workspaceId, { limit: query.limit ?? 50, offset: query.offset ?? 0 });
        set.headers['x-total-count'] = String(total);
        return members;
      },
      {
        workspace: 'members:read',
        params: workspaceParams,
        query: paginationQuery(50),
        response: t.Array(m.MemberResponse),
        detail: operation({ id: 'listMembers', tags, summary: 'Members and pending invitations', errors: [403], list: true }),
      },
    )
    .post(
      '/:workspace_id/members',
      async ({ membership, body, set }) => {
        set.status = 201;
        return workspaces.members.add(membership, body.email, body.role);
      },
      {
        workspace: 'members:manage',
        params: workspaceParams,
        body: m.AddMemberRequest,
        response: { 201: m.MemberResponse },
        detail: operation({
          id: 'addMember',
          tags,
          summary: 'Add a member by e-mail (OWNER or ADMIN); an address without an account is invited',
          errors: [403, 409],
        }),
      },
    )
    .patch('/:workspace_id/members/:member_id', ({ membership, params, body }) => workspaces.members.updateRole(membership, params.member_id, body.role), {
      workspace: 'members:manage',
      params: memberParams,
      body: m.UpdateRoleRequest,
      response: m.MemberResponse,
      detail: operation({ id: 'updateMemberRole', tags, summary: 'Change a role (OWNER or ADMIN); OWNER hands on ownership', errors: [403, 404, 409] }),
    })
    .delete(
      '/:workspace_id/members/:member_id',
      async ({ membership, params, set }) => {
        await workspaces.members.remove(membership, params.member_id);
        set.status = 204;
      },
      {
        workspace: 'members:manage',
        params: memberParams,
        detail: operation({
          id: 'removeMember',
          tags,
          summary: 'Remove a member or invitation (OWNER or ADMIN); never the owner',
          errors: [403, 404, 409],
          success: [{ status: 204, body: 'none' }],
        }),
      },
    );
}
