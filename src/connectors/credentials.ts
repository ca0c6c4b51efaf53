/**
 * Access tokens for connector types that authorize through OAuth. Another module keeps them (sealed,
 * refreshed when they expire) and implements this; connectors only ever ask for a current token.
 */
export interface OAuthTokenSource {
  accessToken(connection: { id: string; workspaceId: string; connectorType: string }): Promise<string>;
}

/** A connection's credentials as its connector sees them. */
export interface ConnectorCredentials {
  /** A current access token (OAuth types only). */
  accessToken(): Promise<string>;
}

/** The credentials of a connection whose type needs none beyond its spec. */
export const specOnlyCredentials: ConnectorCredentials = {
  accessToken: () => Promise.reject(new Error('this connector type does not authorize through OAuth')),
};
