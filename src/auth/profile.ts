import { AppError } from '../errors/app-error';
import { mailTemplates } from '../mail/templates';
import type { AuthContext } from './auth-context';
import { normalizeEmail } from './normalize-email';
import { hashPassword, verifyPassword } from './passwords';
import { findPendingEmailChange } from './queries/email-tokens';
import { findActiveUserById, setPassword, type UserRow } from './queries/users';

export interface UserView {
  id: string;
  email: string;
  name: string | null;
  email_verified: boolean;
  /** The address waiting for confirmation after a change request, if any. */
  pending_email: string | null;
  created_at: string;
}

/** The signed-in user's own account: read it, change its password or address. */
export class Profile {
  constructor(private readonly ctx: AuthContext) {}

  async me(userId: string): Promise<UserView> {
    return this.view(await this.account(userId));
  }

  /** Re-authentication for sensitive operations; a wrong password is a 401 like a failed login. */
  async confirmPassword(userId: string, password: string): Promise<UserRow> {
    const user = await this.account(userId);
    if (!(await verifyPassword(password, user.password_hash))) throw new AppError('INVALID_CREDENTIALS', 'The password is incorrect');
    return user;
  }

  async changePassword(userId: string, currentPassword: string, newPassword: string): Promise<void> {
    await this.confirmPassword(userId, currentPassword);
    const passwordHash = await hashPassword(newPassword);
    await this.ctx.store.transaction(async (tx) => {
      await tx.run(setPassword, { id: userId, password_hash: passwordHash, now: this.ctx.clock.now().toISOString() });
      await this.ctx.sessions.closeAll(tx, userId);
    });
  }

  /** Sends a confirmation link to the new address; the account switches only once it is followed. */
  async requestEmailChange(userId: string, newEmailInput: string, password: string): Promise<UserView> {
    const user = await this.confirmPassword(userId, password);
    const newEmail = normalizeEmail(newEmailInput);
    if (newEmail === user.email) throw new AppError('BAD_REQUEST', 'That is already your address');
    const outboxIds = await this.ctx.store.transaction(async (tx) => {
      const link = await this.ctx.links.issue(tx, userId, 'change_email', newEmail);
      return [
        await this.ctx.outbox.enqueue(tx, mailTemplates.confirmNewEmail(newEmail, link), userId),
        await this.ctx.outbox.enqueue(tx, mailTemplates.emailChangeRequested(user.email, newEmail), userId),
      ];
    });
    await this.ctx.mail.dispatch(outboxIds);
    return { ...(await this.view(user)), pending_email: newEmail };
  }

  /** The caller's live account; a deleted one reads as an ended session. */
  async account(userId: string): Promise<UserRow> {
    const user = await this.ctx.store.first(findActiveUserById, { id: userId });
    if (!user) throw new AppError('INVALID_TOKEN', 'The account no longer exists');
    return user;
  }

  private async view(user: UserRow): Promise<UserView> {
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      email_verified: user.email_verified_at !== null,
      pending_email: await this.pendingEmail(user.id),
      created_at: user.created_at,
    };
  }

  private async pendingEmail(userId: string): Promise<string | null> {
    const pending = await this.ctx.store.first(findPendingEmailChange, { user_id: userId, now: this.ctx.clock.now().toISOString() });
    return pending?.email ?? null;
  }
}
