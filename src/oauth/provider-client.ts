import type { CrmProvider, OAuthProviderConfig } from '../config/oauth-config';

/** What a token endpoint granted. */
export interface TokenGrant {
  accessToken: string;
  /** Absent when the provider keeps the one it gave before (a refresh that does not rotate it). */
  refreshToken?: string;
  /** Seconds the access token lives, when the provider says (Salesforce does not). */
  expiresIn?: number;
  /** Where the API answers for this token (Salesforce). */
  instanceUrl?: string;
}

/** The provider refused the grant: the code or refresh token is no longer good (`invalid_grant`, HubSpot's `BAD_REFRESH_TOKEN`). */
export class GrantRefused extends Error {
  constructor(
    readonly provider: CrmProvider,
    readonly reason: string,
  ) {
    super(`${providerName[provider]} refused the grant (${reason})`);
    this.name = 'GrantRefused';
  }
}

/** The token endpoint could not be reached or answered something else than a grant or a refusal. */
export class ProviderUnavailable extends Error {
  constructor(provider: CrmProvider, why: string) {
    super(`${providerName[provider]}'s token endpoint failed: ${why}`);
    this.name = 'ProviderUnavailable';
  }
}

export const providerName: Record<CrmProvider, string> = { hubspot: 'HubSpot', salesforce: 'Salesforce' };

/** Refusals that mean the grant itself is dead (RFC 6749 §5.2, and HubSpot's own words). */
const deadGrant = new Set(['invalid_grant', 'BAD_REFRESH_TOKEN', 'BAD_AUTH_CODE', 'EXPIRED_AUTH_CODE']);
const timeoutMs = 20_000;

/** The provider's authorization and token endpoints, as one OAuth client (confidential, with PKCE). */
export class ProviderClient {
  constructor(
    readonly provider: CrmProvider,
    private readonly config: OAuthProviderConfig & { client: { id: string; secret: string } },
    private readonly redirectUri: string,
  ) {}

  /** The consent page's URL: client, scopes, redirect URI, state, and the S256 PKCE challenge. */
  authorizationUrl(state: string, codeChallenge: string): string {
    const url = new URL(this.config.authorizeUrl);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.config.client.id);
    url.searchParams.set('redirect_uri', this.redirectUri);
    url.searchParams.set('scope', this.config.scopes.join(' '));
    url.searchParams.set('state', state);
    url.searchParams.set('code_challenge', codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
    return url.href;
  }

  exchangeCode(code: string, codeVerifier: string): Promise<TokenGrant> {
    return this.grant({ grant_type: 'authorization_code', code, code_verifier: codeVerifier, redirect_uri: this.redirectUri });
  }

  refresh(refreshToken: string): Promise<TokenGrant> {
    return this.grant({ grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  /** The API base a grant answers at: its instance_url, else the configured one. */
  apiBase(instanceUrl: string | null | undefined): string {
    return instanceUrl ?? this.config.apiBase;
  }

  private async grant(fields: Record<string, string>): Promise<TokenGrant> {
    let response: Response;
    try {
      response = await fetch(this.config.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ ...fields, client_id: this.config.client.id, client_secret: this.config.client.secret }),
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new ProviderUnavailable(this.provider, error instanceof Error ? error.message : String(error));
    }
    const body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    if (!response.ok) {
      const reason = String(body?.error ?? body?.status ?? `HTTP ${response.status}`);
      if (response.status < 500 && deadGrant.has(reason)) throw new GrantRefused(this.provider, reason);
      throw new ProviderUnavailable(this.provider, `HTTP ${response.status} ${reason}`);
    }
    if (!body || typeof body.access_token !== 'string' || body.access_token === '')
      throw new ProviderUnavailable(this.provider, 'the answer carries no access_token');
    const expiresIn = Number(body.expires_in);
    const instanceUrl = typeof body.instance_url === 'string' && /^https?:\/\//.test(body.instance_url) ? body.instance_url.replace(/\/+$/, '') : undefined;
    return {
      accessToken: body.access_token,
      refreshToken: typeof body.refresh_token === 'string' && body.refresh_token !== '' ? body.refresh_token : undefined,
      expiresIn: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : undefined,
      instanceUrl,
    };
  }
}
