import { AppError } from '../errors/app-error';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import { defaultPlanId } from '../plans/plan-queries';
import { insertMember } from './queries/members';
import { findLiveWorkspaceBySlug, insertWorkspace, listUserWorkspaces, markWorkspaceDeleted, workspaceDeletionLock } from './queries/workspaces';
import { workspaceView, type Membership, type WorkspaceView, type WorkspaceWithRole } from './workspace-view';

export const defaultRegion = 'eu-west-gra';

/** Starts the durable removal of a deleted workspace's data (catalog, files, schedules, rows). */
export interface WorkspacePurgeScheduler {
  schedulePurge(workspaceId: string, purgeAfter: string): Promise<void>;
}

export class WorkspacesService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly purge: WorkspacePurgeScheduler,
    /** Sets up what a new workspace runs on its own (its maintenance schedule); failures are logged, not fatal. */
    private readonly onCreated: (workspaceId: string) => Promise<void>,
    /** Told once a deletion has committed: whatever holds the workspace open lets go of it. */
    private readonly onDeleted: (workspaceId: string) => Promise<void> = () => Promise.resolve(),
  ) {}

  async create(userId: string, input: { name: string; slug: string; region?: string }): Promise<WorkspaceView> {
    const id = Bun.randomUUIDv7();
    const now = this.clock.now().toISOString();
    const row = { id, name: input.name.trim(), slug: input.slug, region: input.region ?? defaultRegion, plan_id: defaultPlanId, created_at: now };
    await this.store.transaction(async (tx) => {
      await tx.lock(`workspace-slug:${input.slug}`);
      if (await tx.first(findLiveWorkspaceBySlug, { slug: input.slug })) {
        throw new AppError('CONFLICT', `The slug "${input.slug}" is taken`, { hint: 'Choose another slug.' });
      }
      await tx.run(insertWorkspace, { ...row, created_by: userId, now });
      await tx.run(insertMember, {
        id: Bun.randomUUIDv7(),
        workspace_id: id,
        user_id: userId,
        invited_email: null,
        role: 'OWNER',
        status: 'active',
        invited_by: null,
        now,
      });
    });
    await this.onCreated(id);
    return workspaceView(row);
  }

  async list(userId: string): Promise<WorkspaceWithRole[]> {
    return (await this.store.all(listUserWorkspaces, { user_id: userId })).map((row) => ({ ...workspaceView(row), role: row.role }));
  }

  /**
   * Access ends at once for everyone (members, API keys, public links); the purge workflow, started
   * before the deletion commits, removes the data even if the service restarts meanwhile.
   */
  async delete(membership: Membership, purgeAfter: string = this.clock.now().toISOString()): Promise<void> {
    await this.store.transaction(async (tx) => {
      await tx.lock(workspaceDeletionLock(membership.workspaceId));
      await this.purge.schedulePurge(membership.workspaceId, purgeAfter);
      await tx.run(markWorkspaceDeleted, { id: membership.workspaceId, now: this.clock.now().toISOString() });
    });
    await this.onDeleted(membership.workspaceId);
  }
}
