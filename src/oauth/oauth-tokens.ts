import type { CrmProvider } from '../config/oauth-config';
import type { OAuthSession, OAuthTokenSource } from '../connectors/credentials';
import { SourceError } from '../connectors/source-error';
import type { SealedBox } from '../crypto/sealed-box';
import type { Logger } from '../logging/logger';
import type { Queryable, Store } from '../store/store';
import type { Clock } from '../util/clock';
import { KeyedMutex } from '../util/keyed-mutex';
import { GrantRefused, ProviderUnavailable, providerName, type ProviderClient, type TokenGrant } from './provider-client';
import { claimRefreshLease, findOAuthTokens, releaseRefreshLease, setConnectionAuthStatus, upsertOAuthTokens, type OAuthTokenRow } from './queries';

interface SealedTokens {
  access_token: string;
  refresh_token: string | null;
}

/** A provider that does not say how long its tokens live (Salesforce) is taken to end sessions after two hours, its default. */
const defaultLifetimeSeconds = 2 * 3600;
/** A token is refreshed at half its lifetime or this long before it expires, whichever comes later. */
const refreshAheadMs = 5 * 60_000;
/** How long a refresh holds the token row's lease at most: well past the provider's own timeout. */
const leaseMs = 60_000;
const leasePollMs = 100;

export interface OAuthTokensDeps {
  store: Store;
  box: SealedBox;
  /** The provider's client, when the provider is configured. */
  clientOf(provider: CrmProvider): ProviderClient | undefined;
  clock: Clock;
  logger: Logger;
}

/**
 * Every OAuth connection's tokens, sealed and bound to the connection. A connector asks for a token
 * before each request: one near its expiry is refreshed first (one refresh at a time per connection,
 * across processes through a lease on the token's row; a second caller gets the token the first one
 * got, which keeps providers that rotate refresh tokens happy), as is one the provider answered 401
 * to. A refresh the provider refuses (the user revoked the app, the refresh token expired) marks the
 * connection `needs_reauth` and fails what asked with a message saying how to authorize it again.
 */
export class OAuthTokens implements OAuthTokenSource {
  private readonly refreshing = new KeyedMutex();

  constructor(private readonly deps: OAuthTokensDeps) {}

  /** Seals a grant for the connection (a new one, or a refresh that keeps the refresh token it had). */
  async save(
    db: Queryable,
    connection: { id: string; workspaceId: string },
    provider: CrmProvider,
    grant: TokenGrant,
    previous?: { refreshToken: string | null; instanceUrl: string | null },
  ): Promise<void> {
    const now = this.deps.clock.now().getTime();
    const lifetimeMs = (grant.expiresIn ?? defaultLifetimeSeconds) * 1000;
    const tokens: SealedTokens = { access_token: grant.accessToken, refresh_token: grant.refreshToken ?? previous?.refreshToken ?? null };
    await db.run(upsertOAuthTokens, {
      connection_id: connection.id,
      workspace_id: connection.workspaceId,
      provider,
      tokens_sealed: this.deps.box.seal(JSON.stringify(tokens), context(connection.id)),
      instance_url: grant.instanceUrl ?? previous?.instanceUrl ?? null,
      refresh_at: new Date(now + lifetimeMs - Math.min(lifetimeMs / 2, refreshAheadMs)).toISOString(),
      expires_at: new Date(now + lifetimeMs).toISOString(),
      updated_at: new Date(now).toISOString(),
    });
  }

  async accessToken(connection: { id: string; workspaceId: string; connectorType: string }): Promise<string> {
    return (await this.session(connection)).accessToken;
  }

  async session(connection: { id: string; workspaceId: string; connectorType: string }, rejected?: string): Promise<OAuthSession> {
    const provider = connection.connectorType as CrmProvider;
    const client = this.deps.clientOf(provider);
    if (!client)
      throw new SourceError(
        'auth',
        `${providerName[provider] ?? provider} is not configured on this service (OAUTH_${provider.toUpperCase()}_CLIENT_ID and _CLIENT_SECRET)`,
      );
    const current = await this.current(connection.id, provider);
    if (current && !this.due(current.row, current.tokens, rejected))
      return { accessToken: current.tokens.access_token, apiBase: client.apiBase(current.row.instance_url) };
    return this.refreshing.runExclusive(connection.id, () => this.refreshUnderLease(connection, provider, client, rejected));
  }

  /**
   * Refreshes across processes one at a time: the token row's lease is taken first (another holder
   * is waited for), then the token is read again, since whoever held the lease may have refreshed it
   * already, rotating the refresh token this process read before. Only a token still due is refreshed.
   */
  private async refreshUnderLease(
    connection: { id: string; workspaceId: string },
    provider: CrmProvider,
    client: ProviderClient,
    rejected: string | undefined,
  ): Promise<OAuthSession> {
    const owner = Bun.randomUUIDv7();
    const giveUpAt = Date.now() + leaseMs + 5_000;
    for (;;) {
      const latest = await this.current(connection.id, provider);
      if (!latest) throw await this.unauthorized(connection.id, provider, 'has never been authorized');
      if (!this.due(latest.row, latest.tokens, rejected)) return { accessToken: latest.tokens.access_token, apiBase: client.apiBase(latest.row.instance_url) };
      const now = this.deps.clock.now().getTime();
      const claimed = await this.deps.store.run(claimRefreshLease, {
        connection_id: connection.id,
        owner,
        until: new Date(now + leaseMs).toISOString(),
        now: new Date(now).toISOString(),
      });
      if (claimed === 1) {
        try {
          const fresh = await this.current(connection.id, provider);
          if (!fresh) throw await this.unauthorized(connection.id, provider, 'has never been authorized');
          if (!this.due(fresh.row, fresh.tokens, rejected)) return { accessToken: fresh.tokens.access_token, apiBase: client.apiBase(fresh.row.instance_url) };
          return await this.refresh(connection, provider, client, fresh);
        } finally {
          await this.deps.store.run(releaseRefreshLease, { connection_id: connection.id, owner });
        }
      }
      if (Date.now() > giveUpAt) throw new SourceError('unreachable', `Another process has been refreshing the ${providerName[provider]} token for too long`);
      await Bun.sleep(leasePollMs);
    }
  }

  private async refresh(
    connection: { id: string; workspaceId: string },
    provider: CrmProvider,
    client: ProviderClient,
    latest: { row: OAuthTokenRow; tokens: SealedTokens },
  ): Promise<OAuthSession> {
    if (!latest.tokens.refresh_token) throw await this.unauthorized(connection.id, provider, 'has an expired token and no refresh token');
    try {
      const grant = await client.refresh(latest.tokens.refresh_token);
      await this.save(this.deps.store, connection, provider, grant, { refreshToken: latest.tokens.refresh_token, instanceUrl: latest.row.instance_url });
      this.deps.logger.info('oauth token refreshed', { connection_id: connection.id, provider });
      return { accessToken: grant.accessToken, apiBase: client.apiBase(grant.instanceUrl ?? latest.row.instance_url) };
    } catch (error) {
      if (error instanceof GrantRefused) throw await this.unauthorized(connection.id, provider, `was refused a new token (${error.reason})`);
      if (error instanceof ProviderUnavailable) throw new SourceError('unreachable', error.message);
      throw error;
    }
  }

  /** Refresh when the token is the one the provider refused, or its refresh time has come. */
  private due(row: OAuthTokenRow, tokens: SealedTokens, rejected: string | undefined): boolean {
    return tokens.access_token === rejected || Date.parse(row.refresh_at) <= this.deps.clock.now().getTime();
  }

  private async current(connectionId: string, provider: CrmProvider): Promise<{ row: OAuthTokenRow; tokens: SealedTokens } | undefined> {
    const row = await this.deps.store.first(findOAuthTokens, { connection_id: connectionId });
    if (!row || row.provider !== provider) return undefined;
    return { row, tokens: JSON.parse(this.deps.box.open(row.tokens_sealed, context(connectionId))) as SealedTokens };
  }

  /** The connection needs the user again: marked so, and the error says how. */
  private async unauthorized(connectionId: string, provider: CrmProvider, what: string): Promise<SourceError> {
    await this.deps.store.run(setConnectionAuthStatus, { id: connectionId, status: 'needs_reauth', now: this.deps.clock.now().toISOString() });
    this.deps.logger.warn('oauth connection needs to be authorized again', { connection_id: connectionId, provider });
    return new SourceError(
      'auth',
      `The ${providerName[provider]} connection ${what}: authorize it again (GET /api/v1/oauth/${provider}/authorize with its name as connection_name)`,
    );
  }
}

function context(connectionId: string): string {
  return `oauth-tokens:${connectionId}`;
}
