import { AppError } from '../errors/app-error';
import type { Store } from '../store/store';
import type { AccessTokens } from './access-tokens';
import { apiKeyPrefix, type ApiKeys } from './api-keys';
import { findActiveUserById } from './queries/users';

export type Caller = { userId: string; via: 'jwt' } | { userId: string; via: 'api_key'; apiKeyId: string };

/** Turns presented credentials into a caller, or a 401 with the precise code. */
export class Authenticator {
  constructor(
    private readonly store: Store,
    private readonly accessTokens: AccessTokens,
    private readonly apiKeys: ApiKeys,
  ) {}

  /** A JWT access token in `Authorization: Bearer …`. */
  async user(authorization: string | undefined): Promise<Caller> {
    const token = bearerOf(authorization);
    if (!token) throw new AppError('NOT_AUTHENTICATED', 'Authentication required', { hint: 'Send Authorization: Bearer <access token>.' });
    if (token.startsWith(apiKeyPrefix)) {
      throw new AppError('INVALID_TOKEN', 'This endpoint takes an access token, not an API key', {
        hint: 'Exchange the key with POST /api/v1/auth/session-token.',
      });
    }
    const claims = this.accessTokens.verify(token);
    const user = await this.store.first(findActiveUserById, { id: claims.userId });
    // A password change, reset or account deletion raises the epoch and so ends every outstanding token.
    if (!user || user.session_epoch !== claims.epoch) throw new AppError('INVALID_TOKEN', 'The session has ended', { hint: 'Log in again.' });
    return { userId: user.id, via: 'jwt' };
  }

  /** An API key in `X-API-Key`, or as `Authorization: Bearer oxb_…`. */
  async apiKey(xApiKey: string | undefined, authorization: string | undefined): Promise<Caller> {
    const caller = await this.apiKeys.authenticate(xApiKey ?? bearerOf(authorization));
    return { userId: caller.userId, via: 'api_key', apiKeyId: caller.apiKeyId };
  }

  /** Either credential in `Authorization: Bearer …` (session-token exchange). */
  async userOrApiKey(xApiKey: string | undefined, authorization: string | undefined): Promise<Caller> {
    const bearer = bearerOf(authorization);
    if (xApiKey || bearer?.startsWith(apiKeyPrefix)) return this.apiKey(xApiKey, authorization);
    return this.user(authorization);
  }
}

function bearerOf(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}
