import { AppError } from '../errors/app-error';
import { newSecretToken, sha256Hex } from '../crypto/secret-tokens';
import type { Queryable, Store } from '../store/store';
import { isoAfter, type Clock } from '../util/clock';
import { accessTokenTtlSeconds, type AccessTokens } from './access-tokens';
import type { TokenPair } from './token-pair';
import { findRefreshToken, insertRefreshToken, markRefreshTokenRotated, revokeRefreshFamily, revokeUserRefreshTokens } from './queries/refresh-tokens';
import { endUserSessions, findActiveUserById } from './queries/users';

const refreshTokenTtlMs = 30 * 24 * 3_600_000;

/**
 * Token pairs: a 15-minute access JWT and a 30-day opaque refresh token, stored hashed and rotated on
 * every use. A rotated token presented again means it leaked: its whole family is revoked.
 */
export class Sessions {
  constructor(
    private readonly store: Store,
    private readonly accessTokens: AccessTokens,
    private readonly clock: Clock,
  ) {}

  /** A new session (a new refresh family) for a user, written in the caller's transaction. */
  async open(tx: Queryable, user: { id: string; session_epoch: number }): Promise<TokenPair> {
    return this.issue(tx, user, Bun.randomUUIDv7());
  }

  /** A new session in its own transaction. */
  start(user: { id: string; session_epoch: number }): Promise<TokenPair> {
    return this.store.transaction((tx) => this.open(tx, user));
  }

  async refresh(refreshToken: string): Promise<TokenPair> {
    const now = this.clock.now().toISOString();
    type Outcome = { pair: TokenPair } | { error: 'invalid' | 'expired' | 'reused' };
    const outcome = await this.store.transaction(async (tx): Promise<Outcome> => {
      const token = await tx.first(findRefreshToken, { token_hash: sha256Hex(refreshToken) });
      if (!token || token.revoked_at) return { error: 'invalid' };
      if (token.expires_at <= now) return { error: 'expired' };
      if (token.rotated_at || (await tx.run(markRefreshTokenRotated, { id: token.id, now })) === 0) {
        await tx.run(revokeRefreshFamily, { family_id: token.family_id, now });
        return { error: 'reused' };
      }
      const user = await tx.first(findActiveUserById, { id: token.user_id });
      if (!user) return { error: 'invalid' };
      return { pair: await this.issue(tx, user, token.family_id) };
    });
    if ('pair' in outcome) return outcome.pair;
    switch (outcome.error) {
      case 'expired':
        throw new AppError('TOKEN_EXPIRED', 'The refresh token has expired', { hint: 'Log in again.' });
      case 'reused':
        throw new AppError('INVALID_TOKEN', 'This refresh token was already used; the session has been ended for safety', { hint: 'Log in again.' });
      case 'invalid':
        throw new AppError('INVALID_TOKEN', 'Invalid refresh token');
      default:
        return outcome.error satisfies never;
    }
  }

  /** Ends the session the token belongs to; unknown tokens are ignored so that logout is idempotent. */
  async close(refreshToken: string): Promise<void> {
    const token = await this.store.first(findRefreshToken, { token_hash: sha256Hex(refreshToken) });
    if (token) await this.store.run(revokeRefreshFamily, { family_id: token.family_id, now: this.clock.now().toISOString() });
  }

  /** Ends every session of a user (password change or reset, account deletion). */
  async closeAll(tx: Queryable, userId: string): Promise<void> {
    await tx.run(revokeUserRefreshTokens, { user_id: userId, now: this.clock.now().toISOString() });
  }

  /**
   * Logout everywhere: every refresh token of the user is revoked and the epoch bump ends every access
   * token already handed out, in every browser and client at once (API keys are not sessions: they stay).
   */
  async endEverywhere(userId: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      await this.closeAll(tx, userId);
      await tx.run(endUserSessions, { id: userId, now: this.clock.now().toISOString() });
    });
  }

  private async issue(tx: Queryable, user: { id: string; session_epoch: number }, familyId: string): Promise<TokenPair> {
    const refreshToken = newSecretToken();
    await tx.run(insertRefreshToken, {
      id: Bun.randomUUIDv7(),
      user_id: user.id,
      family_id: familyId,
      token_hash: sha256Hex(refreshToken),
      now: this.clock.now().toISOString(),
      expires_at: isoAfter(this.clock, refreshTokenTtlMs),
    });
    return {
      access_token: this.accessTokens.issue(user.id, user.session_epoch),
      refresh_token: refreshToken,
      token_type: 'bearer',
      expires_in: accessTokenTtlSeconds,
    };
  }
}
