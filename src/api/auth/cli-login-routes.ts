import { Elysia, t } from 'elysia';
import type { AuthServices } from '../../auth/auth-services';
import { AppError } from '../../errors/app-error';
import { clientAddress } from '../plugins/client-address';
import { queryInteger, textInteger } from '../query-params';
import { operation } from '../openapi/operation';
import { text } from '../text';
import { cliLoginPage } from './cli-login-page';

const tags = ['Authentication'];
const state = text({ minLength: 16, maxLength: 128, description: 'Opaque value the CLI checks on its callback' });
const html = (body: string, status = 200) =>
  new Response(body, { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });

/**
 * Browser login for the command-line client: the CLI opens the form with its local callback port; on
 * valid credentials the service creates an API key and redirects to http://127.0.0.1:<port>/callback
 * (never any other host), passing the key and the unchanged state.
 */
export function cliLoginRoutes(auth: AuthServices, trustProxy: boolean) {
  return new Elysia()
    .use(clientAddress(trustProxy))
    .get('/cli-login', ({ query }) => html(cliLoginPage({ callbackPort: query.callback_port, state: query.state })), {
      query: t.Object({ callback_port: queryInteger('callback_port', { minimum: 1024, maximum: 65535 }), state }),
      detail: operation({ id: 'getCliLoginForm', tags, summary: 'The CLI login form (text/html)', success: [{ status: 200, body: 'html' }] }),
    })
    .post(
      '/cli-login',
      async ({ body, clientAddress }) => {
        const port = body.callback_port;
        try {
          const user = await auth.login.checkCredentials(body.email, body.password, clientAddress);
          const key = await auth.apiKeys.create(user.id, `Oxbow CLI (${new Date().toISOString().slice(0, 10)})`, null);
          const callback = new URL(`http://127.0.0.1:${port}/callback`);
          callback.searchParams.set('key', key.key!);
          callback.searchParams.set('state', body.state);
          return new Response(null, { status: 303, headers: { location: callback.href, 'cache-control': 'no-store' } });
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          return html(cliLoginPage({ callbackPort: port, state: body.state, email: body.email, error: error.message }));
        }
      },
      {
        body: t.Object({
          email: text({ maxLength: 320 }),
          password: text({ maxLength: 128 }),
          callback_port: textInteger('body', 'callback_port', { minimum: 1024, maximum: 65535 }),
          state,
        }),
        detail: operation({
          id: 'submitCliLogin',
          tags,
          summary: 'Submit the CLI login form (form-urlencoded)',
          description:
            'Valid credentials redirect (303) to the CLI’s local callback with a new API key; anything else renders the form again with the message.',
          requestBody: 'application/x-www-form-urlencoded',
          success: [
            { status: 303, body: 'none', location: true },
            { status: 200, body: 'html' },
          ],
        }),
      },
    );
}
