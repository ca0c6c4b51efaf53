import type { EnvReader } from './env-reader';

export const crmProviders = ['hubspot', 'salesforce'] as const;
export type CrmProvider = (typeof crmProviders)[number];

/** One provider's OAuth client and endpoints; `client` is unset until both id and secret are. */
export interface OAuthProviderConfig {
  client: { id: string; secret: string } | undefined;
  authorizeUrl: string;
  tokenUrl: string;
  /** Where its API answers (Salesforce answers at the `instance_url` of each token instead). */
  apiBase: string;
  scopes: string[];
}

export type OAuthConfig = Record<CrmProvider, OAuthProviderConfig>;

/** The providers' real endpoints and the read-only scopes the connectors need. */
const defaults: Record<CrmProvider, Omit<OAuthProviderConfig, 'client'>> = {
  hubspot: {
    authorizeUrl: 'https://app.hubspot.com/oauth/authorize',
    tokenUrl: 'https://api.hubapi.com/oauth/v1/token',
    apiBase: 'https://api.hubapi.com',
    scopes: ['oauth', 'crm.objects.contacts.read', 'crm.objects.companies.read', 'crm.objects.deals.read', 'tickets', 'crm.schemas.contacts.read'],
  },
  salesforce: {
    authorizeUrl: 'https://login.salesforce.com/services/oauth2/authorize',
    tokenUrl: 'https://login.salesforce.com/services/oauth2/token',
    apiBase: 'https://login.salesforce.com',
    scopes: ['api', 'refresh_token'],
  },
};

/** `OAUTH_<PROVIDER>_CLIENT_ID`, `_CLIENT_SECRET`, `_AUTHORIZE_URL`, `_TOKEN_URL`, `_API_BASE`, `_SCOPES` for each provider. */
export function readOAuthConfig(env: EnvReader): OAuthConfig {
  const read = (provider: CrmProvider): OAuthProviderConfig => {
    const prefix = `OAUTH_${provider.toUpperCase()}_`;
    const fallback = defaults[provider];
    const id = env.optionalString(`${prefix}CLIENT_ID`);
    const secret = env.optionalString(`${prefix}CLIENT_SECRET`);
    if ((id === undefined) !== (secret === undefined)) env.reject(`${prefix}CLIENT_ID`, `and ${prefix}CLIENT_SECRET must be set together`, undefined);
    const url = (name: string, value: string) => env.url(`${prefix}${name}`, value, ['http:', 'https:']).href.replace(/\/+$/, '');
    return {
      client: id !== undefined && secret !== undefined ? { id, secret } : undefined,
      authorizeUrl: url('AUTHORIZE_URL', fallback.authorizeUrl),
      tokenUrl: url('TOKEN_URL', fallback.tokenUrl),
      apiBase: url('API_BASE', fallback.apiBase),
      scopes:
        env
          .optionalString(`${prefix}SCOPES`)
          ?.split(/[\s,]+/)
          .filter(Boolean) ?? fallback.scopes,
    };
  };
  return { hubspot: read('hubspot'), salesforce: read('salesforce') };
}
