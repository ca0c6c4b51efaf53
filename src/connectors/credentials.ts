/** A current access token and where the provider's API answers for it (Salesforce: the token's `instance_url`). */
export interface OAuthSession {
  accessToken: string;
  apiBase: string;
}

/**
 * Access tokens for connector types that authorize through OAuth. Another module keeps them (sealed,
 * refreshed when they expire) and implements this; connectors only ever ask for a current token.
 */
export interface OAuthTokenSource {
  accessToken(connection: { id: string; workspaceId: string; connectorType: string }): Promise<string>;
  /** The token with its API base; `rejected` is a token the provider refused (401): a fresh one is fetched. */
  session?(connection: { id: string; workspaceId: string; connectorType: string }, rejected?: string): Promise<OAuthSession>;
}

/** A connection's credentials as its connector sees them. */
export interface ConnectorCredentials {
  /** A current access token (OAuth types only). */
  accessToken(): Promise<string>;
  /** A current token and its API base (OAuth types only); `rejected` forces a refresh past that token. */
  oauthSession?(rejected?: string): Promise<OAuthSession>;
}

/** The credentials of a connection whose type needs none beyond its spec. */
export const specOnlyCredentials: ConnectorCredentials = {
  accessToken: () => Promise.reject(new Error('this connector type does not authorize through OAuth')),
};
