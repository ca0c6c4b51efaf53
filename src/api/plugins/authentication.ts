import { Elysia } from 'elysia';
import type { Authenticator, Caller } from '../../auth/authenticator';

export type AuthKind = 'user' | 'api-key' | 'user-or-api-key';

// The document's security schemes (openapi/components.ts): an access token, or an API key in either header.
export const securityOf: Record<AuthKind, Record<string, string[]>[]> = {
  user: [{ bearer: [] }],
  'api-key': [{ apiKey: [] }, { apiKeyBearer: [] }],
  'user-or-api-key': [{ bearer: [] }, { apiKey: [] }, { apiKeyBearer: [] }],
};

/** `{ auth: 'user' | 'api-key' | 'user-or-api-key' }` on a route resolves `caller` or answers 401. */
export function authentication(authenticator: Authenticator) {
  return new Elysia({ name: 'authentication' }).macro({
    auth: (kind: AuthKind) => ({
      detail: { security: securityOf[kind] },
      // From the raw request: a route's header schema would strip headers it does not declare.
      async resolve({ request }) {
        return { caller: await authenticate(authenticator, kind, request.headers) };
      },
    }),
  });
}

/** The caller of a request, by the credential kinds the route takes. */
export function authenticate(authenticator: Authenticator, kind: AuthKind, headers: Headers): Promise<Caller> {
  const authorization = headers.get('authorization') ?? undefined;
  const xApiKey = headers.get('x-api-key') ?? undefined;
  switch (kind) {
    case 'user':
      return authenticator.user(authorization);
    case 'api-key':
      return authenticator.apiKey(xApiKey, authorization);
    case 'user-or-api-key':
      return authenticator.userOrApiKey(xApiKey, authorization);
    default:
      return kind satisfies never;
  }
}
