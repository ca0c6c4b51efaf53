import { newSecretToken, sha256Hex } from '../crypto/secret-tokens';
import type { Queryable } from '../store/store';
import { isoAfter, type Clock } from '../util/clock';
import { expireUserEmailTokens, insertEmailToken, type EmailTokenPurpose } from './queries/email-tokens';

const lifetimes: Record<EmailTokenPurpose, { ttlMs: number; page: string }> = {
  verify_email: { ttlMs: 24 * 3_600_000, page: 'verify-email' },
  change_email: { ttlMs: 24 * 3_600_000, page: 'verify-email' },
  reset_password: { ttlMs: 3_600_000, page: 'reset-password' },
};

/** Single-use links for e-mails: `{FRONTEND_URL}/<page>?token=…`, the token stored only as its digest. */
export class EmailLinks {
  constructor(
    private readonly frontendUrl: string,
    private readonly clock: Clock,
  ) {}

  /** Issues a link, replacing earlier unused links of the same purpose. */
  async issue(tx: Queryable, userId: string, purpose: EmailTokenPurpose, email: string): Promise<string> {
    const { ttlMs, page } = lifetimes[purpose];
    const now = this.clock.now().toISOString();
    await tx.run(expireUserEmailTokens, { user_id: userId, purpose, now });
    const token = newSecretToken();
    await tx.run(insertEmailToken, {
      id: Bun.randomUUIDv7(),
      user_id: userId,
      purpose,
      email,
      token_hash: sha256Hex(token),
      now,
      expires_at: isoAfter(this.clock, ttlMs),
    });
    return `${this.frontendUrl}/${page}?token=${encodeURIComponent(token)}`;
  }
}
