import { createHash, randomBytes } from 'node:crypto';
import { crmProviders, type CrmProvider } from '../config/oauth-config';
import { newSecretToken, sha256Hex } from '../crypto/secret-tokens';
import type { SealedBox } from '../crypto/sealed-box';
import { AppError, RequestValidationError } from '../errors/app-error';
import { checkedName } from '../connections/connection-input';
import type { Logger } from '../logging/logger';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { Membership } from '../workspaces/workspace-view';
import { providerName, type ProviderClient } from './provider-client';
import { claimOAuthAttempt, findConnectionOfName, findOAuthAttemptByState, insertOAuthAttempt } from './queries';

/** Where the provider sends the browser back (under the service's public base URL): registered with the provider as the redirect URI. */
export const oauthCallbackPath = (provider: CrmProvider) => `/api/v1/oauth/${provider}/callback`;

/** How long a state (and the consent it asks for) is good. */
const stateLifetimeMs = 10 * 60_000;

export interface AuthorizeAnswer {
  authorization_url: string;
  state: string;
  expires_at: string;
}

/** How the workflow completing an attempt ended: the connection bound, or the code the callback redirects with. */
export type OAuthOutcome = { connectionId: string; error?: undefined } | { connectionId?: string; error: string };

/** What the callback needs of the OAuth-connection workflow (implemented by its client module). */
export interface OAuthWorkflows {
  /** Starts the workflow for the claimed attempt and waits for it to bind the connection; undefined when it takes too long. */
  complete(attempt: { id: string; workspace_id: string; provider: CrmProvider; connection_name: string }): Promise<OAuthOutcome | undefined>;
}

export interface OAuthServiceDeps {
  store: Store;
  box: SealedBox;
  clientOf(provider: CrmProvider): ProviderClient | undefined;
  workflows: OAuthWorkflows;
  frontendUrl: string;
  clock: Clock;
  logger: Logger;
}

/**
 * The two halves of the authorization-code flow. Authorize hands out the provider's consent URL with
 * a random state (single use, ten minutes, bound to the user, workspace, provider and connection name)
 * and a PKCE challenge whose verifier never leaves the service. The callback spends the state and hands
 * the code to the OAuth-connection workflow; it always answers with a redirect to the front end.
 */
export class OAuthService {
  constructor(private readonly deps: OAuthServiceDeps) {}

  /** Whether the provider's client is configured (the connector type's `configured`). */
  configured(provider: string): boolean {
    return isProvider(provider) && this.deps.clientOf(provider) !== undefined;
  }

  async authorize(membership: Membership, provider: string, connectionName: string): Promise<AuthorizeAnswer> {
    if (!isProvider(provider)) throw new AppError('NOT_FOUND', `No CRM provider ${provider}`, { hint: `Providers: ${crmProviders.join(', ')}.` });
    const client = this.deps.clientOf(provider);
    if (!client) {
      throw new AppError('PROVIDER_NOT_CONFIGURED', `${providerName[provider]} is not configured on this service`, {
        hint: `Set OAUTH_${provider.toUpperCase()}_CLIENT_ID and OAUTH_${provider.toUpperCase()}_CLIENT_SECRET.`,
      });
    }
    const name = checkedConnectionName(connectionName);
    const existing = await this.deps.store.first(findConnectionOfName, { workspace_id: membership.workspaceId, name });
    if (existing && existing.connector_type !== provider) {
      throw new AppError('CONFLICT', `The connection ${name} is of type ${existing.connector_type}`, {
        hint: 'Choose another name: an existing name is authorized again only for its own provider.',
      });
    }
    const state = newSecretToken();
    const verifier = randomBytes(48).toString('base64url');
    const id = Bun.randomUUIDv7();
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + stateLifetimeMs).toISOString();
    await this.deps.store.run(insertOAuthAttempt, {
      id,
      state_hash: sha256Hex(state),
      provider,
      user_id: membership.userId,
      workspace_id: membership.workspaceId,
      connection_name: name,
      verifier_sealed: this.deps.box.seal(verifier, attemptContext(id)),
      created_at: now.toISOString(),
      expires_at: expiresAt,
    });
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    return { authorization_url: client.authorizationUrl(state, challenge), state, expires_at: expiresAt };
  }

  /**
   * Where the browser goes after the provider sent it back: the connection's page once the workflow
   * bound it, or the connections page with an error code (`invalid_state` for a state that is
   * unknown, spent, expired, forged or of another provider; `access_denied`; `exchange_failed`…).
   */
  async callback(provider: string, input: { code?: string; state?: string; error?: string }): Promise<string> {
    const failed = (code: string, extra: Record<string, string> = {}) => this.frontend('/connections', { error: code, ...extra });
    const attempt = input.state ? await this.deps.store.first(findOAuthAttemptByState, { state_hash: sha256Hex(input.state) }) : undefined;
    const now = this.deps.clock.now().toISOString();
    if (!attempt || attempt.provider !== provider || attempt.used_at !== null || attempt.expires_at <= now) {
      this.deps.logger.warn('oauth callback refused', {
        provider,
        reason: !attempt ? 'unknown state' : attempt.provider !== provider ? 'other provider' : attempt.used_at ? 'state reused' : 'state expired',
      });
      return failed('invalid_state');
    }
    const refusal = input.error ? (input.error === 'access_denied' ? 'access_denied' : 'authorization_failed') : input.code ? null : 'invalid_request';
    const code_sealed = refusal ? null : this.deps.box.seal(input.code!, attemptContext(attempt.id));
    const claimed = await this.deps.store.run(claimOAuthAttempt, { id: attempt.id, provider, now, code_sealed, error_code: refusal });
    if (claimed === 0) return failed('invalid_state');
    if (refusal) return failed(refusal);
    let outcome: OAuthOutcome | undefined;
    try {
      outcome = await this.deps.workflows.complete({
        id: attempt.id,
        workspace_id: attempt.workspace_id,
        provider: provider as CrmProvider,
        connection_name: attempt.connection_name,
      });
    } catch (error) {
      // Temporal unreachable: the browser still lands on the front end, which says to authorize again.
      if (!(error instanceof AppError)) throw error;
      this.deps.logger.warn('oauth connection workflow could not start', { provider, error });
      return failed('service_unavailable');
    }
    if (!outcome) return failed('pending', { connection_name: attempt.connection_name });
    if (outcome.error !== undefined) return failed(outcome.error, outcome.connectionId ? { connection_id: outcome.connectionId } : {});
    return this.frontend(`/connections/${outcome.connectionId}`, { status: 'connected' });
  }

  private frontend(path: string, query: Record<string, string>): string {
    return `${this.deps.frontendUrl}${path}?${new URLSearchParams(query).toString()}`;
  }
}

/** What seals an attempt's verifier and code: bound to the attempt. */
export function attemptContext(attemptId: string): string {
  return `oauth-attempt:${attemptId}`;
}

function isProvider(provider: string): provider is CrmProvider {
  return (crmProviders as readonly string[]).includes(provider);
}

/** The connection's name under the rules of every connection name, its problems told at the query parameter. */
function checkedConnectionName(name: string): string {
  try {
    return checkedName(name);
  } catch (error) {
    if (!(error instanceof RequestValidationError)) throw error;
    throw new RequestValidationError(error.issues.map((issue) => ({ ...issue, loc: ['query', 'connection_name'] })));
  }
}
