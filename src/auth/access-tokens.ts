import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { AppError } from '../errors/app-error';
import type { Clock } from '../util/clock';

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
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly clock: Clock,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async issue(userId: string, epoch: number): Promise<string> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return new SignJWT({ sev: epoch, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt(now)
      .setExpirationTime(now + accessTokenTtlSeconds)
      .setJti(Bun.randomUUIDv7())
      .sign(this.key);
  }

  async verify(token: string): Promise<AccessClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], issuer, audience, currentDate: this.clock.now() });
      if (payload.typ !== 'access' || typeof payload.sub !== 'string' || typeof payload.sev !== 'number') throw new AppError('INVALID_TOKEN', 'Invalid access token');
      return { userId: payload.sub, epoch: payload.sev };
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof joseErrors.JWTExpired) throw new AppError('TOKEN_EXPIRED', 'The access token has expired', { hint: 'Refresh it with POST /api/v1/auth/refresh.' });
      throw new AppError('INVALID_TOKEN', 'Invalid access token');
    }
  }
}
