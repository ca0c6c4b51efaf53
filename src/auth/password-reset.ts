import { AppError } from '../errors/app-error';
import { sha256Hex } from '../crypto/secret-tokens';
import { mailTemplates } from '../mail/templates';
import type { AuthContext } from './auth-context';
import { normalizeEmail } from './normalize-email';
import { hashPassword } from './passwords';
import { consumeEmailToken } from './queries/email-tokens';
import { findActiveUserByEmail, markEmailVerified, setPassword } from './queries/users';

/** Forgotten passwords: a one-hour, single-use link; using it ends every session. */
export class PasswordReset {
  constructor(private readonly ctx: AuthContext) {}

  async requestReset(email: string): Promise<void> {
    const address = normalizeEmail(email);
    const outboxId = await this.ctx.store.transaction(async (tx) => {
      const user = await tx.first(findActiveUserByEmail, { email: address });
      if (!user) return undefined;
      const link = await this.ctx.links.issue(tx, user.id, 'reset_password', address);
      return this.ctx.outbox.enqueue(tx, mailTemplates.resetPassword(address, link), user.id);
    });
    if (outboxId) await this.ctx.mail.dispatch([outboxId]);
  }

  async reset(token: string, newPassword: string): Promise<void> {
    const passwordHash = await hashPassword(newPassword);
    const now = this.ctx.clock.now().toISOString();
    await this.ctx.store.transaction(async (tx) => {
      const used = await tx.first(consumeEmailToken, { token_hash: sha256Hex(token), purpose: 'reset_password', or_purpose: 'reset_password', now });
      if (!used || (await tx.run(setPassword, { id: used.user_id, password_hash: passwordHash, now })) === 0) {
        throw new AppError('BAD_REQUEST', 'The reset link is invalid or has expired', { hint: 'Ask for a new one with POST /api/v1/auth/forgot-password.' });
      }
      // The link reached the mailbox, which is what verification proves.
      await tx.run(markEmailVerified, { id: used.user_id, now });
      await this.ctx.sessions.closeAll(tx, used.user_id);
    });
  }
}
