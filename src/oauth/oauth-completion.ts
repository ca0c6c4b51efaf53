import { openSyncJob } from '../connections/open-sync-job';
import type { CrmProvider } from '../config/oauth-config';
import type { ConnectionsService } from '../connections/connections-service';
import type { ConfiguredStream } from '../connections/stream-plan';
import { connectorOf } from '../connectors/registry';
import { validateSpec } from '../connectors/spec-values';
import { findConnectionById } from '../connections/queries';
import type { SourceProbes, TestResult } from '../connections/source-probes';
import type { SealedBox } from '../crypto/sealed-box';
import { AppError } from '../errors/app-error';
import type { Logger } from '../logging/logger';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { WorkspaceAccess } from '../workspaces/workspace-access';
import { attemptContext } from './oauth-service';
import type { OAuthTokens } from './oauth-tokens';
import { GrantRefused, type ProviderClient } from './provider-client';
import { endOAuthAttempt, findConnectionOfName, findOAuthAttempt, setConnectionAuthStatus } from './queries';

export type Bound = { connectionId: string; workspaceId: string; userId: string; rebound: boolean } | { error: string; connectionId?: undefined };

export interface OAuthCompletionDeps {
  store: Store;
  box: SealedBox;
  clientOf(provider: CrmProvider): ProviderClient | undefined;
  tokens: OAuthTokens;
  access: WorkspaceAccess;
  connections: ConnectionsService;
  probes: SourceProbes;
  clock: Clock;
  logger: Logger;
}

/**
 * What the OAuth-connection workflow does, step by step: exchange the attempt's code (with its PKCE
 * verifier) for tokens, seal them on a new connection or on the existing one of that name (which is
 * then active again), test the connection, and record its first sync job. Tokens never leave this
 * module: the workflow sees ids and outcomes only.
 */
export class OAuthCompletion {
  constructor(private readonly deps: OAuthCompletionDeps) {}

  /** Idempotent: an attempt that bound its connection already answers with it (a retried activity). */
  async bind(attemptId: string): Promise<Bound> {
    const { store, box } = this.deps;
    const attempt = await store.first(findOAuthAttempt, { id: attemptId });
    if (!attempt) return { error: 'invalid_state' };
    if (attempt.connection_id) return { connectionId: attempt.connection_id, workspaceId: attempt.workspace_id, userId: attempt.user_id, rebound: false };
    if (!attempt.code_sealed) return { error: attempt.error_code ?? 'invalid_state' };
    const provider = attempt.provider as CrmProvider;
    const end = async (outcome: Bound): Promise<Bound> => {
      await store.run(endOAuthAttempt, { id: attemptId, connection_id: outcome.connectionId ?? null, error_code: 'error' in outcome ? outcome.error : null });
      return outcome;
    };
    const client = this.deps.clientOf(provider);
    if (!client) return end({ error: 'provider_not_configured' });
    // The user may have lost the workspace (or the role) since authorize.
    const membership = await this.deps.access.authorize(attempt.user_id, attempt.workspace_id, 'content:manage').catch((error: unknown) => {
      if (error instanceof AppError) return undefined;
      throw error;
    });
    if (!membership) return end({ error: 'access_denied' });
    let grant;
    try {
      grant = await client.exchangeCode(box.open(attempt.code_sealed, attemptContext(attemptId)), box.open(attempt.verifier_sealed, attemptContext(attemptId)));
    } catch (error) {
      if (error instanceof GrantRefused) return end({ error: 'exchange_failed' });
      throw error;
    }
    const existing = await store.first(findConnectionOfName, { workspace_id: attempt.workspace_id, name: attempt.connection_name });
    if (existing && existing.connector_type !== provider) return end({ error: 'name_taken' });
    let connectionId = existing?.id;
    if (!connectionId) {
      try {
        connectionId = (
          await this.deps.connections.create(membership, {
            name: attempt.connection_name,
            connector_type: provider,
            spec: {},
            streams: initialStreams(provider),
          })
        ).id;
      } catch (error) {
        if (error instanceof AppError) return end({ error: error.code === 'CONNECTOR_LIMIT_REACHED' ? 'connector_limit_reached' : 'connection_not_created' });
        throw error;
      }
    }
    await store.transaction(async (tx) => {
      await this.deps.tokens.save(tx, { id: connectionId, workspaceId: attempt.workspace_id }, provider, grant);
      if (existing) await tx.run(setConnectionAuthStatus, { id: connectionId, status: 'active', now: this.deps.clock.now().toISOString() });
    });
    this.deps.logger.info('oauth connection bound', { connection_id: connectionId, provider, rebound: existing !== undefined });
    return end({ connectionId, workspaceId: attempt.workspace_id, userId: attempt.user_id, rebound: existing !== undefined });
  }

  async test(connectionId: string): Promise<TestResult> {
    const row = await this.deps.store.first(findConnectionById, { id: connectionId });
    if (!row) return { success: false, message: 'The connection was deleted', latency_ms: 0 };
    return this.deps.probes.test(row);
  }

  /** The first sync's job (trigger `oauth`), unless one is open already; its id is the sync workflow's id. */
  async openFirstSync(connectionId: string, userId: string): Promise<string | null> {
    const opened = await openSyncJob(this.deps.store, connectionId, {
      trigger: 'oauth',
      request: null,
      createdBy: userId,
      now: this.deps.clock.now().toISOString(),
    });
    return 'created' in opened ? opened.created.id : null;
  }
}

/**
 * A new CRM connection syncs its default objects incrementally, deduplicated on the object id: after
 * the first sync only what changed is read (a full refresh stays one trigger away).
 */
function initialStreams(provider: CrmProvider): ConfiguredStream[] {
  const { spec } = validateSpec(connectorOf(provider)!.spec, {});
  const objects = (spec?.objects ?? []) as string[];
  return objects.map((object) => ({ name: object.toLowerCase(), sync_mode: 'incremental_append_deduped' }));
}
