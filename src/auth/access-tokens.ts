import { AppError } from '../errors/app-error';
import type { Clock } from '../util/clock';
import { Hs256Jwt } from './hs256-jwt';

export const accessTokenTtlSeconds = 15 * 60;
const issuer = 'oxbow';
const audience = 'oxbow-api';

export interface AccessClaims {
  userId: string;
  /** The user's session epoch when the token was issued; a later epoch invalidates it. */
  epoch: number;
}

/** Short-lived HS256 access tokens. Signing lives here, away from the HTTP layer, so services can issue them. */
export class AccessTokens {
  private readonly jwt: Hs256Jwt;

  constructor(
    secret: string,
    private readonly clock: Clock,
  ) {
    this.jwt = new Hs256Jwt(secret);
  }

  issue(userId: string, epoch: number): string {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return this.jwt.sign({
      sev: epoch,
      typ: 'access',
      sub: userId,
      iss: issuer,
      aud: audience,
      iat: now,
      exp: now + accessTokenTtlSeconds,
      jti: Bun.randomUUIDv7(),
    });
  }

  /** The claims of a token this service signed for access: INVALID_TOKEN otherwise, TOKEN_EXPIRED once it has run out. */
  verify(token: string): AccessClaims {
    const claims = this.jwt.claimsOf(token);
    if (!claims || claims.iss !== issuer || !namesAudience(claims.aud) || claims.typ !== 'access') throw invalidToken();
    const { sub, sev, exp, nbf } = claims;
    if (typeof sub !== 'string' || typeof sev !== 'number' || typeof exp !== 'number' || (nbf !== undefined && typeof nbf !== 'number')) throw invalidToken();
    const now = this.clock.now().getTime() / 1000;
    if (nbf !== undefined && nbf > now) throw invalidToken();
    if (exp <= now) throw new AppError('TOKEN_EXPIRED', 'The access token has expired', { hint: 'Refresh it with POST /api/v1/auth/refresh.' });
    return { userId: sub, epoch: sev };
  }
}

function namesAudience(aud: unknown): boolean {
  return aud === audience || (Array.isArray(aud) && aud.includes(audience));
}

function invalidToken(): AppError {
  return new AppError('INVALID_TOKEN', 'Invalid access token');
}
