import { AppError } from '../errors/app-error';
import type { SealedBox } from '../crypto/sealed-box';
import { randomBase62, sha256Hex } from '../crypto/secret-tokens';
import { isoAfter } from '../util/clock';
import type { AuthContext } from './auth-context';
import { consumeSessionCode, insertSessionCode } from './queries/session-codes';
import { findActiveUserById } from './queries/users';
import type { TokenPair } from './token-pair';

export const sessionCodeTtlSeconds = 60;

/**
 * One-time codes that carry a session to another client (the dashboard hands one to the CLI, say):
 * valid 60 seconds, consumed by their first exchange, the token pair behind them sealed at rest.
 */
export class SessionCodes {
  constructor(
    private readonly ctx: AuthContext,
    private readonly sealedBox: SealedBox,
  ) {}

  async create(userId: string): Promise<{ code: string; expires_in: number }> {
    const code = randomBase62(24);
    const codeHash = sha256Hex(code);
    await this.ctx.store.transaction(async (tx) => {
      const user = await tx.first(findActiveUserById, { id: userId });
      if (!user) throw new AppError('INVALID_TOKEN', 'The account no longer exists');
      const pair = await this.ctx.sessions.open(tx, user);
      await tx.run(insertSessionCode, {
        code_hash: codeHash,
        user_id: userId,
        tokens_ciphertext: this.sealedBox.seal(JSON.stringify(pair), `session-code:${codeHash}`),
        now: this.ctx.clock.now().toISOString(),
        expires_at: isoAfter(this.ctx.clock, sessionCodeTtlSeconds * 1000),
      });
    });
    return { code, expires_in: sessionCodeTtlSeconds };
  }

  async exchange(code: string): Promise<TokenPair> {
    const codeHash = sha256Hex(code);
    const row = await this.ctx.store.first(consumeSessionCode, { code_hash: codeHash, now: this.ctx.clock.now().toISOString() });
    if (!row || !(await this.ctx.store.first(findActiveUserById, { id: row.user_id }))) {
      throw new AppError('INVALID_TOKEN', 'The code is invalid, expired or already used', { hint: 'Create a new one with POST /api/v1/auth/session-code.' });
    }
    return JSON.parse(this.sealedBox.open(row.tokens_ciphertext, `session-code:${codeHash}`)) as TokenPair;
  }
}
