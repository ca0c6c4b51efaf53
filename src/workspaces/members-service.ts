import { AppError, RequestValidationError } from '../errors/app-error';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { Page } from '../util/page';
import type { MailOutbox } from '../mail/outbox';
import type { MailDispatch } from '../mail/mail-dispatch';
import { mailTemplates } from '../mail/templates';
import { normalizeEmail } from '../auth/normalize-email';
import { findActiveUserByEmail, findActiveUserById } from '../auth/queries/users';
import type { Role } from './roles';
import {
  countMembers,
  deleteMember,
  findInvitation,
  findMember,
  findMemberByUser,
  insertMember,
  listMembers,
  setMemberRole,
  type MemberRow,
} from './queries/members';
import type { Membership } from './workspace-view';

export type MemberView = MemberRow;

/**
 * Membership rules: OWNER and ADMIN manage members; an ADMIN never touches the OWNER nor grants
 * ownership; only the OWNER hands ownership on (and becomes ADMIN), so there is always exactly one.
 */
export class MembersService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly outbox: MailOutbox,
    private readonly mail: MailDispatch,
    private readonly frontendUrl: string,
  ) {}

  async list(workspaceId: string, page: Page): Promise<{ members: MemberView[]; total: number }> {
    const [members, count] = await Promise.all([
      this.store.all(listMembers, { workspace_id: workspaceId, ...page }),
      this.store.first(countMembers, { workspace_id: workspaceId }),
    ]);
    return { members, total: count?.total ?? 0 };
  }

  /**
   * Adds by e-mail. An address with a verified account joins at once; any other gets an invitation
   * that binds when an account verifies the address. The answer is the same in both cases (an
   * invitation), so it does not tell whether the address has an account.
   */
  async add(caller: Membership, emailInput: string, role: Role): Promise<MemberView> {
    if (role === 'OWNER') throw RequestValidationError.at(['body', 'role'], 'OWNER cannot be assigned by invitation; transfer ownership instead', 'enum');
    const email = normalizeEmail(emailInput);
    const now = this.clock.now().toISOString();
    const id = Bun.randomUUIDv7();
    const outboxId = await this.store.transaction(async (tx) => {
      await tx.lock(`workspace-members:${caller.workspaceId}`);
      const account = await tx.first(findActiveUserByEmail, { email });
      const verified = account?.email_verified_at ? account : undefined;
      const already = verified
        ? await tx.first(findMemberByUser, { workspace_id: caller.workspaceId, user_id: verified.id })
        : await tx.first(findInvitation, { workspace_id: caller.workspaceId, email });
      if (already) throw new AppError('CONFLICT', `${email} is already a member or invited`);
      await tx.run(insertMember, {
        id,
        workspace_id: caller.workspaceId,
        user_id: verified?.id ?? null,
        invited_email: verified ? null : email,
        role,
        status: verified ? 'active' : 'invited',
        invited_by: caller.userId,
        now,
      });
      const inviter = await tx.first(findActiveUserById, { id: caller.userId });
      const message = verified
        ? mailTemplates.addedToWorkspace(email, caller.workspace.name, inviter?.email ?? 'A workspace admin', this.frontendUrl)
        : mailTemplates.workspaceInvitation(
            email,
            caller.workspace.name,
            inviter?.email ?? 'A workspace admin',
            `${this.frontendUrl}/signup?${new URLSearchParams({ email })}`,
          );
      return this.outbox.enqueue(tx, message, verified?.id ?? null);
    });
    await this.mail.dispatch([outboxId]);
    return { id, user_id: null, email, role, status: 'invited' };
  }

  async updateRole(caller: Membership, memberId: string, role: Role): Promise<MemberView> {
    const now = this.clock.now().toISOString();
    await this.store.transaction(async (tx) => {
      await tx.lock(`workspace-members:${caller.workspaceId}`);
      const target = await this.target(tx, caller, memberId);
      if (target.role === 'OWNER' && caller.role !== 'OWNER') throw new AppError('INSUFFICIENT_ROLE', 'Only the owner can change the owner');
      if (role === 'OWNER') {
        if (caller.role !== 'OWNER') throw new AppError('INSUFFICIENT_ROLE', 'Only the owner can hand on ownership');
        if (target.id === caller.memberId) return;
        if (target.status !== 'active') throw new AppError('CONFLICT', 'Ownership goes to an active member, not to an invitation');
        // The previous owner steps down first: the one-owner index would refuse two at once.
        await tx.run(setMemberRole, { workspace_id: caller.workspaceId, id: caller.memberId, role: 'ADMIN', now });
        await tx.run(setMemberRole, { workspace_id: caller.workspaceId, id: target.id, role: 'OWNER', now });
        return;
      }
      if (target.role === 'OWNER') throw new AppError('CONFLICT', 'The owner keeps the OWNER role until ownership is handed to another member');
      await tx.run(setMemberRole, { workspace_id: caller.workspaceId, id: target.id, role, now });
    });
    const updated = await this.store.first(findMember, { workspace_id: caller.workspaceId, id: memberId });
    return updated!;
  }

  async remove(caller: Membership, memberId: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      const target = await this.target(tx, caller, memberId);
      if (target.role === 'OWNER') {
        if (caller.role !== 'OWNER') throw new AppError('INSUFFICIENT_ROLE', 'The owner cannot be removed');
        throw new AppError('CONFLICT', 'The owner cannot be removed; hand on ownership first');
      }
      await tx.run(deleteMember, { workspace_id: caller.workspaceId, id: target.id });
    });
  }

  private async target(tx: Pick<Store, 'first'>, caller: Membership, memberId: string): Promise<MemberRow> {
    const target = await tx.first(findMember, { workspace_id: caller.workspaceId, id: memberId });
    if (!target) throw new AppError('NOT_FOUND', 'No such member in this workspace');
    return target;
  }
}
