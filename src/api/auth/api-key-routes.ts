import { Elysia } from 'elysia';
import type { AuthServices } from '../../auth/auth-services';
import { authentication } from '../plugins/authentication';
import { paginationQuery } from '../query-params';
import { authModels as m, keyIdParams } from './model';
import { t } from 'elysia';

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
      { auth: 'user', body: m.CreateAPIKeyRequest, response: { 201: m.APIKeyResponse }, detail: { tags, summary: 'Create a key; the full key is in this response only' } },
    )
    .get(
      '',
      async ({ caller, query, set }) => {
        const { keys, total } = await auth.apiKeys.list(caller.userId, { limit: query.limit ?? 50, offset: query.offset ?? 0 });
        set.headers['x-total-count'] = String(total);
        return keys;
      },
      { auth: 'user', query: paginationQuery(50), response: t.Array(m.APIKeyResponse), detail: { tags, summary: 'List keys (never the keys themselves)' } },
    )
    .post(
      '/:key_id/reveal',
      async ({ caller, params, body }) => {
        await auth.profile.confirmPassword(caller.userId, body.password);
        return auth.apiKeys.reveal(caller.userId, params.key_id);
      },
      { auth: 'user', params: keyIdParams, body: m.PasswordRequest, response: m.APIKeyResponse, detail: { tags, summary: 'Show a full key again (needs the password)' } },
    )
    .delete(
      '/:key_id',
      async ({ caller, params, set }) => {
        await auth.apiKeys.revoke(caller.userId, params.key_id);
        set.status = 204;
      },
      { auth: 'user', params: keyIdParams, detail: { tags, summary: 'Revoke a key' } },
    );
}
