import { t } from 'elysia';
import { text } from '../text';

export const oauthModels = {
  ProviderParams: t.Object({ crm_provider: t.String({ description: 'hubspot or salesforce' }) }),
  AuthorizeQuery: t.Object({
    workspace_id: text({ minLength: 1, maxLength: 63, description: 'The workspace’s id or slug' }),
    connection_name: text({
      minLength: 1,
      maxLength: 255,
      description: 'The connection to create (or, when it exists for this provider, to authorize again); the lake schema of its tables',
    }),
  }),
  AuthorizeResponse: t.Object({
    authorization_url: t.String({ description: 'The provider’s consent page: send the user there' }),
    state: t.String({ description: 'Single use, bound to the caller, workspace and connection name' }),
    expires_at: t.String({ description: 'The state is refused after this time (ten minutes)' }),
  }),
  // Providers may add parameters of their own to the redirect: they are let through and ignored.
  CallbackQuery: t.Object(
    {
      state: text({ minLength: 1, maxLength: 2048 }),
      code: t.Optional(text({ minLength: 1, maxLength: 4096, description: 'Absent when the provider answers with an error' })),
      error: t.Optional(text({ maxLength: 255, description: 'The provider’s refusal, such as access_denied' })),
      error_description: t.Optional(text({ maxLength: 4096 })),
    },
    { additionalProperties: true },
  ),
};
