import { createHash, randomBytes } from 'node:crypto';

/** How a provider words its token answers and refusals. */
export interface TokenDialect {
  /** The JSON of a granted token (HubSpot: expires_in; Salesforce: instance_url, issued_at, no expiry). */
  granted(token: { access: string; refresh: string; lifetimeSeconds: number }): Record<string, unknown>;
  /** A refused grant: the provider's status and body. */
  refused(reason: 'code' | 'refresh' | 'client'): { status: number; body: Record<string, unknown> };
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string | null;
  expiresAt: number;
}

/**
 * The authorization-server half of a fake provider, as RFC 6749 and 7636 have it: the consent page
 * (answered at once with a redirect carrying a code, or `error=access_denied`), codes good once for a
 * minute and bound to the client, redirect URI and PKCE challenge, access tokens that expire, refresh
 * tokens that can be revoked. Every secret it hands out is kept, for tests that look for leaks.
 */
export class FakeOAuthServer {
  readonly client = { id: `client-${randomBytes(6).toString('hex')}`, secret: `client-secret-${randomBytes(18).toString('base64url')}` };
  /** Seconds an access token lives. */
  tokenLifetimeSeconds = 1800;
  /** The next consent is refused by the user. */
  denyConsent = false;
  /** Each refresh answers a new refresh token and the one used stops working, as providers that rotate them do. */
  rotateRefreshTokens = false;
  /** How long the token endpoint takes to answer a refresh (a slow provider widens the window two refreshes can overlap in). */
  refreshDelayMs = 0;
  readonly grants = { authorization_code: 0, refresh_token: 0 };
  readonly issued: string[] = [];
  /** What the last authorize request asked for. */
  lastAuthorize: URLSearchParams | undefined;
  private readonly codes = new Map<string, PendingCode>();
  private readonly accessTokens = new Map<string, { expiresAt: number; refresh: string }>();
  private readonly refreshTokens = new Set<string>();

  constructor(private readonly dialect: TokenDialect) {}

  /** GET of the consent page: the user agrees (or not) at once. */
  authorize(url: URL): Response {
    this.lastAuthorize = url.searchParams;
    const redirectUri = url.searchParams.get('redirect_uri');
    const state = url.searchParams.get('state');
    if (url.searchParams.get('client_id') !== this.client.id || !redirectUri) return new Response('unknown client or redirect_uri', { status: 400 });
    const target = new URL(redirectUri);
    if (this.denyConsent) {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_description', 'The user denied access');
    } else {
      const code = this.remember(`code-${randomBytes(16).toString('hex')}`);
      const method = url.searchParams.get('code_challenge_method');
      if (url.searchParams.has('code_challenge') && method !== 'S256') return new Response('only S256 challenges', { status: 400 });
      this.codes.set(code, { clientId: this.client.id, redirectUri, challenge: url.searchParams.get('code_challenge'), expiresAt: Date.now() + 60_000 });
      target.searchParams.set('code', code);
    }
    if (state !== null) target.searchParams.set('state', state);
    return new Response(null, { status: 302, headers: { location: target.href } });
  }

  /** POST of the token endpoint, form-encoded: the authorization-code and refresh-token grants. */
  async token(request: Request): Promise<Response> {
    const form = new URLSearchParams(await request.text());
    if (form.get('client_id') !== this.client.id || form.get('client_secret') !== this.client.secret) return this.refuse('client');
    if (form.get('grant_type') === 'authorization_code') {
      const code = form.get('code') ?? '';
      const pending = this.codes.get(code);
      this.codes.delete(code);
      const verifier = form.get('code_verifier');
      const challengeOk =
        pending?.challenge === null || (verifier !== null && createHash('sha256').update(verifier).digest('base64url') === pending?.challenge);
      if (!pending || pending.expiresAt < Date.now() || pending.redirectUri !== form.get('redirect_uri') || !challengeOk) return this.refuse('code');
      this.grants.authorization_code += 1;
      return this.grant(this.remember(`refresh-${randomBytes(18).toString('hex')}`));
    }
    if (form.get('grant_type') === 'refresh_token') {
      const refresh = form.get('refresh_token') ?? '';
      if (!this.refreshTokens.has(refresh)) return this.refuse('refresh');
      if (this.refreshDelayMs > 0) await Bun.sleep(this.refreshDelayMs);
      if (!this.refreshTokens.has(refresh)) return this.refuse('refresh');
      this.grants.refresh_token += 1;
      if (!this.rotateRefreshTokens) return this.grant(refresh);
      this.refreshTokens.delete(refresh);
      return this.grant(this.remember(`refresh-${randomBytes(18).toString('hex')}`));
    }
    return Response.json({ error: 'unsupported_grant_type' }, { status: 400 });
  }

  /** The bearer token of an API request, if it is one this server issued and it has not expired. */
  validToken(request: Request): string | undefined {
    const token = /^Bearer (.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    const known = token === undefined ? undefined : this.accessTokens.get(token);
    return known && known.expiresAt > Date.now() ? token : undefined;
  }

  /** The token stops working now (as a provider may end a session early). */
  expire(token: string): void {
    const known = this.accessTokens.get(token);
    if (known) known.expiresAt = 0;
  }

  /** The refresh token granted last (the grant of the connection a test made last). */
  get lastRefreshToken(): string {
    return [...this.refreshTokens].at(-1)!;
  }

  /** The user revokes one grant: its refresh token is refused from now on and its access tokens stop working. */
  revokeGrant(refresh: string): void {
    this.refreshTokens.delete(refresh);
    for (const known of this.accessTokens.values()) if (known.refresh === refresh) known.expiresAt = 0;
  }

  private grant(refresh: string): Response {
    this.refreshTokens.add(refresh);
    const access = this.remember(`access-${randomBytes(18).toString('hex')}`);
    this.accessTokens.set(access, { expiresAt: Date.now() + this.tokenLifetimeSeconds * 1000, refresh });
    return Response.json(this.dialect.granted({ access, refresh, lifetimeSeconds: this.tokenLifetimeSeconds }));
  }

  private refuse(reason: 'code' | 'refresh' | 'client'): Response {
    const { status, body } = this.dialect.refused(reason);
    return Response.json(body, { status });
  }

  private remember(secret: string): string {
    this.issued.push(secret);
    return secret;
  }
}
