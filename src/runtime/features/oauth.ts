import { createOAuthActivities } from '../../activities/oauth-activities';
import { crmProviders, type CrmProvider } from '../../config/oauth-config';
import type { ConnectionsService } from '../../connections/connections-service';
import type { SourceProbes } from '../../connections/source-probes';
import { SealedBox } from '../../crypto/sealed-box';
import { OAuthCompletion } from '../../oauth/oauth-completion';
import { oauthCallbackPath, OAuthService } from '../../oauth/oauth-service';
import { OAuthTokens } from '../../oauth/oauth-tokens';
import { ProviderClient } from '../../oauth/provider-client';
import { deleteWorkspaceOAuthAttempts, deleteWorkspaceOAuthTokens, pruneOAuthAttempts, pruneOrphanOAuthTokens } from '../../oauth/queries';
import type { WorkspaceAccess } from '../../workspaces/workspace-access';
import { OAuthConnectionClient } from '../../workflow-clients/oauth-connection';
import type { FeatureWiring } from '../feature';
import type { FeatureDeps } from './deps';

/** The CRM providers' clients and the connections' tokens: what connectors need before the connections feature exists. */
export function oauthTokenSource({ config, infra, logger, clock }: FeatureDeps) {
  const box = new SealedBox(config.secrets.encryptionKey);
  const clients = new Map<CrmProvider, ProviderClient>();
  for (const provider of crmProviders) {
    const settings = config.oauth[provider];
    if (settings.client)
      clients.set(
        provider,
        new ProviderClient(provider, { ...settings, client: settings.client }, `${config.http.publicBaseUrl}${oauthCallbackPath(provider)}`),
      );
  }
  const clientOf = (provider: CrmProvider) => clients.get(provider);
  const tokens = new OAuthTokens({ store: infra.store, box, clientOf, clock, logger: logger.child({ component: 'oauth' }) });
  return { box, clientOf, tokens };
}

export interface OAuthFeatureDeps extends FeatureDeps {
  source: ReturnType<typeof oauthTokenSource>;
  connections: ConnectionsService;
  probes: SourceProbes;
  access: WorkspaceAccess;
}

/**
 * OAuth for CRM connections: authorize and callback behind the routes, the OAuth-connection
 * workflow's activities, the purge of a deleted workspace's attempts and tokens, and the sweep of
 * spent attempts and of tokens whose connection is gone.
 */
export function oauthFeature({ config, infra, logger, clock, source, connections, probes, access }: OAuthFeatureDeps) {
  const log = logger.child({ component: 'oauth' });
  const { store } = infra;
  const service = new OAuthService({
    store,
    box: source.box,
    clientOf: source.clientOf,
    workflows: new OAuthConnectionClient(infra.temporal, log),
    frontendUrl: config.http.frontendUrl,
    clock,
    logger: log,
  });
  const completion = new OAuthCompletion({
    store,
    box: source.box,
    clientOf: source.clientOf,
    tokens: source.tokens,
    access,
    connections,
    probes,
    clock,
    logger: log,
  });
  const wiring = {
    activities: createOAuthActivities(completion),
    workspacePurge: { rows: [deleteWorkspaceOAuthTokens, deleteWorkspaceOAuthAttempts] },
    prune: [pruneOAuthAttempts, pruneOrphanOAuthTokens],
  } satisfies FeatureWiring;
  return { service, wiring };
}
