import { Elysia, t } from 'elysia';
import type { AuthServices } from '../../auth/auth-services';
import { authentication } from '../plugins/authentication';
import { paginationQuery } from '../query-params';
import { operation } from '../openapi/operation';
import { authModels as m, keyIdParams } from './model';

const tags = ['API keys'];

export function apiKeyRoutes(auth: AuthServices) {
  return new Elysia({ prefix: '/api-keys' })
    .use(authentication(auth.authenticator))
    .post(
      '',
      async ({ caller, body, set }) => {
        set.status = 201;
        return auth.apiKeys.create(caller.userId, body.name, body.expires_at ?? null);
      },
      {
        auth: 'user',
        body: m.CreateAPIKeyRequest,
        response: { 201: m.APIKeyResponse },
        detail: operation({ id: 'createApiKey', tags, summary: 'Create a key; the full key is in this response only', errors: [400] }),
      },
    )
    .get(
      '',
      async ({ caller, query, set }) => {
        const { keys, total } = await auth.apiKeys.list(caller.userId, { limit: query.limit ?? 50, offset: query.offset ?? 0 });
        set.headers['x-total-count'] = String(total);
        return keys;
      },
      {
        auth: 'user',
        query: paginationQuery(50),
        response: t.Array(m.APIKeyResponse),
        detail: operation({ id: 'listApiKeys', tags, summary: 'List keys (never the keys themselves)', list: true }),
      },
    )
    .post(
      '/:key_id/reveal',
      async ({ caller, params, body }) => {
        await auth.profile.confirmPassword(caller.userId, body.password);
        return auth.apiKeys.reveal(caller.userId, params.key_id);
      },
      {
        auth: 'user',
        params: keyIdParams,
        body: m.PasswordRequest,
        response: m.APIKeyResponse,
        detail: operation({ id: 'revealApiKey', tags, summary: 'Show a full key again (needs the password)', errors: [404] }),
      },
    )
    .delete(
      '/:key_id',
      async ({ caller, params, set }) => {
        await auth.apiKeys.revoke(caller.userId, params.key_id);
        set.status = 204;
      },
      {
        auth: 'user',
        params: keyIdParams,
        detail: operation({ id: 'revokeApiKey', tags, summary: 'Revoke a key', errors: [404], success: [{ status: 204, body: 'none' }] }),
      },
    );
}
