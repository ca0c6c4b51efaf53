import { Elysia } from 'elysia';
import type { Services } from '../../runtime/services';
import { workspaceAccess } from '../plugins/workspace-access';
import { operation } from '../openapi/operation';
import { oauthModels as m } from './model';

const tags = ['OAuth'];

/** The OAuth 2.0 authorization of CRM connections: the consent URL, and the provider's redirect back. */
export function oauthRoutes(services: Pick<Services, 'auth' | 'workspaces' | 'oauth'>) {
  const { oauth } = services;
  return new Elysia()
    .use(workspaceAccess(services.auth.authenticator, services.workspaces.access))
    .get('/oauth/:crm_provider/authorize', ({ membership, params, query }) => oauth.authorize(membership, params.crm_provider, query.connection_name), {
      workspace: { permission: 'content:manage', from: { in: 'query', field: 'workspace_id' } },
      params: m.ProviderParams,
      query: m.AuthorizeQuery,
      response: m.AuthorizeResponse,
      detail: operation({
        id: 'authorizeCrmProvider',
        tags,
        summary: 'The provider’s consent URL for a CRM connection (MEMBER and above)',
        description:
          'The URL carries the client id, scopes, redirect URI, a single-use state (ten minutes) and a PKCE challenge. An existing connection of this name and provider is bound again to the new tokens (after `needs_reauth`); a name used by another type is 409. An unconfigured provider is 503 PROVIDER_NOT_CONFIGURED.',
        errors: [403, 404, 409, 503],
      }),
    })
    .get(
      '/oauth/:crm_provider/callback',
      async ({ params, query }) => {
        const location = await oauth.callback(params.crm_provider, query);
        return new Response(null, { status: 302, headers: { location, 'cache-control': 'no-store' } });
      },
      {
        params: m.ProviderParams,
        query: m.CallbackQuery,
        detail: operation({
          id: 'completeCrmAuthorization',
          tags,
          summary: 'Where the provider sends the user back: the connection is created, tested and synced',
          description:
            'Always a redirect: to `{FRONTEND_URL}/connections/<id>?status=connected`, or to `{FRONTEND_URL}/connections?error=<code>` with `invalid_state` (unknown, used, expired, forged or another provider’s state), `access_denied`, `exchange_failed`, `connection_test_failed` (with `connection_id`), `connector_limit_reached`, `name_taken`, `authorization_failed`, `service_unavailable`, or `pending` when the connection is still being set up.',
          success: [{ status: 302, body: 'none', location: true }],
        }),
      },
    );
}
