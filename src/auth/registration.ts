import { AppError } from '../errors/app-error';
import { mailTemplates } from '../mail/templates';
import type { AuthContext } from './auth-context';
import { normalizeEmail } from './normalize-email';
import { hashPassword } from './passwords';
import { consumeEmailToken } from './queries/email-tokens';
import { changeEmail, findActiveUserByEmail, findActiveUserById, insertUser, markEmailVerified } from './queries/users';
import { joinWaitlist } from './queries/waitlist';
import { sha256Hex } from '../crypto/secret-tokens';

export interface RegistrationStatus {
  mode: 'open' | 'waitlist' | 'closed';
  signup_open: boolean;
  waitlist_open: boolean;
}

/**
 * Sign-up, waitlist and address verification. Every answer that could tell whether an address has an
 * account is the same either way; the work on both paths is alike too (a password hash, an outbox row).
 */
export class Registration {
  constructor(private readonly ctx: AuthContext) {}

  status(): RegistrationStatus {
    const mode = this.ctx.signupMode;
    return { mode, signup_open: mode === 'open', waitlist_open: mode === 'waitlist' };
  }

  async joinWaitlist(email: string): Promise<void> {
    await this.ctx.store.run(joinWaitlist, { email: normalizeEmail(email), now: this.ctx.clock.now().toISOString() });
  }

  async signup(input: { email: string; password: string; name?: string }): Promise<void> {
    if (this.ctx.signupMode !== 'open') {
      throw new AppError('SIGNUP_CLOSED', 'Sign-up is not open', {
        hint: this.ctx.signupMode === 'waitlist' ? 'Join the waitlist with POST /api/v1/auth/waitlist.' : undefined,
      });
    }
    const email = normalizeEmail(input.email);
    const passwordHash = await hashPassword(input.password);
    const outboxId = await this.ctx.store.transaction(async (tx) => {
      await tx.lock(`account-email:${email}`);
      if (await tx.first(findActiveUserByEmail, { email })) {
        return this.ctx.outbox.enqueue(tx, mailTemplates.accountExists(email, `${this.ctx.frontendUrl}/login`), null);
      }
      const id = Bun.randomUUIDv7();
      await tx.run(insertUser, { id, email, name: input.name?.trim() || null, password_hash: passwordHash, now: this.ctx.clock.now().toISOString() });
      const link = await this.ctx.links.issue(tx, id, 'verify_email', email);
      return this.ctx.outbox.enqueue(tx, mailTemplates.verifyEmail(email, link), id);
    });
    await this.ctx.mail.dispatch([outboxId]);
  }

  /** Confirms a new account's address, or switches an account to the new address it confirmed. */
  async verifyEmail(token: string): Promise<void> {
    const now = this.ctx.clock.now().toISOString();
    await this.ctx.store.transaction(async (tx) => {
      const used = await tx.first(consumeEmailToken, { token_hash: sha256Hex(token), purpose: 'verify_email', or_purpose: 'change_email', now });
      const user = used && (await tx.first(findActiveUserById, { id: used.user_id }));
      if (!used || !user)
        throw new AppError('BAD_REQUEST', 'The verification link is invalid or has expired', {
          hint: 'Ask for a new one with POST /api/v1/auth/resend-verification.',
        });
      if (used.purpose === 'change_email') {
        if (await tx.first(findActiveUserByEmail, { email: used.email })) throw new AppError('CONFLICT', 'That address now belongs to another account');
        await tx.run(changeEmail, { id: user.id, email: used.email, now });
      } else {
        await tx.run(markEmailVerified, { id: user.id, now });
      }
      await this.ctx.hooks.onEmailVerified(tx, { id: user.id, email: used.email });
    });
  }

  async resendVerification(email: string): Promise<void> {
    const address = normalizeEmail(email);
    const outboxId = await this.ctx.store.transaction(async (tx) => {
      const user = await tx.first(findActiveUserByEmail, { email: address });
      if (!user || user.email_verified_at) return undefined;
      const link = await this.ctx.links.issue(tx, user.id, 'verify_email', address);
      return this.ctx.outbox.enqueue(tx, mailTemplates.verifyEmail(address, link), user.id);
    });
    if (outboxId) await this.ctx.mail.dispatch([outboxId]);
  }
}
