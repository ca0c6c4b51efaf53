import { AppError } from '../errors/app-error';
import type { Store } from '../store/store';
import { allows, type Permission } from './roles';
import { findLiveWorkspaceBySlug, findMembership, listUserWorkspaces } from './queries/workspaces';
import { workspaceView, type Membership } from './workspace-view';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Decides, for every workspace-scoped endpoint, whether the caller may act: not a member (or no such
 * workspace, which is not told apart) is 403 WORKSPACE_ACCESS_DENIED; a member whose role lacks the
 * permission is 403 INSUFFICIENT_ROLE.
 */
export class WorkspaceAccess {
  constructor(private readonly store: Store) {}

  async authorize(userId: string, workspaceId: string, permission: Permission): Promise<Membership> {
    const row = uuidPattern.test(workspaceId)
      ? await this.store.first(findMembership, { workspace_id: workspaceId.toLowerCase(), user_id: userId })
      : undefined;
    if (!row) throw new AppError('WORKSPACE_ACCESS_DENIED', 'You are not a member of this workspace');
    if (!allows(row.role, permission)) {
      throw new AppError('INSUFFICIENT_ROLE', `Your role (${row.role}) does not allow this`, { hint: `Ask an owner or admin of the workspace.` });
    }
    return { workspace: workspaceView(row), workspaceId: row.id, userId, memberId: row.member_id, role: row.role };
  }

  /** A workspace named by id or slug (the `workspace` query parameter), else the caller's default one. */
  async resolve(userId: string, idOrSlug: string | undefined, permission: Permission): Promise<Membership> {
    if (idOrSlug === undefined) return this.authorize(userId, await this.defaultWorkspaceId(userId), permission);
    if (uuidPattern.test(idOrSlug)) return this.authorize(userId, idOrSlug, permission);
    const bySlug = await this.store.first(findLiveWorkspaceBySlug, { slug: idOrSlug.toLowerCase() });
    if (!bySlug) throw new AppError('WORKSPACE_ACCESS_DENIED', 'You are not a member of this workspace');
    return this.authorize(userId, bySlug.id, permission);
  }

  /** The caller's first workspace (oldest membership). */
  async defaultWorkspaceId(userId: string): Promise<string> {
    const [first] = await this.store.all(listUserWorkspaces, { user_id: userId });
    if (!first) throw new AppError('NO_WORKSPACE', 'Your account has no workspace yet', { hint: 'Create one with POST /api/v1/workspaces.' });
    return first.id;
  }
}
