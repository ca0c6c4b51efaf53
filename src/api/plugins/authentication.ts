import { Elysia } from 'elysia';
import type { Authenticator } from '../../auth/authenticator';

export type AuthKind = 'user' | 'api-key' | 'user-or-api-key';

// The document's security schemes (openapi/components.ts): an access token, or an API key in either header.
const securityOf: Record<AuthKind, Record<string, string[]>[]> = {
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
        const authorization = request.headers.get('authorization') ?? undefined;
        const xApiKey = request.headers.get('x-api-key') ?? undefined;
        switch (kind) {
          case 'user':
            return { caller: await authenticator.user(authorization) };
          case 'api-key':
            return { caller: await authenticator.apiKey(xApiKey, authorization) };
          case 'user-or-api-key':
            return { caller: await authenticator.userOrApiKey(xApiKey, authorization) };
        }
      },
    }),
  });
}
