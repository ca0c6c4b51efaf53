import { t } from 'elysia';
import { documentedAs } from '../openapi/documented-schema';
import { text } from '../text';

const role = t.Union([t.Literal('OWNER'), t.Literal('ADMIN'), t.Literal('MEMBER'), t.Literal('VIEWER')], { description: 'A member’s role in a workspace' });

export const workspaceModels = {
  WorkspaceRole: role,
  WorkspaceCreateRequest: t.Object({
    name: text({ minLength: 1, maxLength: 200 }),
    slug: text({
      minLength: 3,
      maxLength: 63,
      pattern: '^[a-z0-9]([a-z0-9-]*[a-z0-9])?$',
      description: 'Lowercase letters, digits and hyphens, not starting or ending with a hyphen; unique',
    }),
    region: t.Optional(text({ minLength: 2, maxLength: 32, pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', default: 'eu-west-gra' })),
  }),
  WorkspaceResponse: t.Object({
    id: t.String({ format: 'uuid' }),
    name: t.String(),
    slug: t.String(),
    region: t.String(),
    plan: t.String(),
    created_at: t.String({ format: 'date-time' }),
  }),
  WorkspaceWithRoleResponse: t.Object({
    id: t.String({ format: 'uuid' }),
    name: t.String(),
    slug: t.String(),
    region: t.String(),
    plan: t.String(),
    created_at: t.String({ format: 'date-time' }),
    role,
  }),
  AddMemberRequest: t.Object({
    email: text({ format: 'email', maxLength: 320 }),
    // OWNER is refused by the members service with its own message; ownership is handed on, never invited.
    role: documentedAs(t.Union([t.Literal('OWNER'), t.Literal('ADMIN'), t.Literal('MEMBER'), t.Literal('VIEWER')]), {
      type: 'string',
      enum: ['ADMIN', 'MEMBER', 'VIEWER'],
      description: 'OWNER cannot be given by invitation: the owner hands ownership on instead',
    }),
  }),
  UpdateRoleRequest: t.Object({ role }),
  MemberResponse: t.Object({
    id: t.String({ format: 'uuid' }),
    user_id: t.Nullable(t.String({ format: 'uuid' })),
    email: t.String(),
    role,
    status: t.Union([t.Literal('active'), t.Literal('invited')]),
  }),
};

export const workspaceParams = t.Object({ workspace_id: t.String({ format: 'uuid' }) });
export const memberParams = t.Object({ workspace_id: t.String({ format: 'uuid' }), member_id: t.String({ format: 'uuid' }) });
