import { Elysia } from 'elysia';
import type { Authenticator } from '../../auth/authenticator';

export type AuthKind = 'user' | 'api-key' | 'user-or-api-key';

const securityOf: Record<AuthKind, Record<string, string[]>[]> = {
  user: [{ bearer: [] }],
  'api-key': [{ apiKey: [] }, { bearer: [] }],
  'user-or-api-key': [{ bearer: [] }, { apiKey: [] }],
};

/** `{ auth: 'user' | 'api-key' | 'user-or-api-key' }` on a route resolves `caller` or answers 401. */
export function authentication(authenticator: Authenticator) {
  return new Elysia({ name: 'authentication' }).macro({
    auth: (kind: AuthKind) => ({
      detail: { security: securityOf[kind] },
      async resolve({ headers }) {
        const authorization = headers.authorization;
        const xApiKey = headers['x-api-key'];
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
