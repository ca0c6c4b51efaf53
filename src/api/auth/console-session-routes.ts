import { Elysia, t } from 'elysia';
import type { AuthServices } from '../../auth/auth-services';
import type { TokenPair } from '../../auth/token-pair';
import { AppError } from '../../errors/app-error';
import { clientAddress } from '../plugins/client-address';
import { operation } from '../openapi/operation';
import { consoleCookie, type ConsoleCookieOptions } from './console-cookie';
import { authModels as m } from './model';

const tags = ['Console session'];
const consoleHeader = t.Object({
  'x-oxbow-console': t.Literal('1', {
    description: 'Sent by the console on every cookie endpoint: a page of another site cannot send it without a CORS preflight, which the service never grants',
  }),
});
const cookieSecurity = [{ consoleRefresh: [] }];
const extension =
  'An extension of the interface for the web console: the refresh token lives in an HttpOnly, SameSite=Strict cookie scoped to `/api/v1/auth/console` (Secure when the service is reached over HTTPS), and page scripts only ever hold the 15-minute access token.';

/**
 * The console's sessions: the refresh token in a cookie no script can read, scoped to these three
 * endpoints, and the access token in the answer (kept in the page's memory). Cross-site requests are
 * refused three ways: the cookie is SameSite=Strict, every endpoint needs the `X-Oxbow-Console`
 * header (which another site's page cannot send without a preflight), and an `Origin` or
 * `Sec-Fetch-Site` that names another site is refused.
 */
export function consoleSessionRoutes(auth: AuthServices, options: ConsoleCookieOptions) {
  const cookie = consoleCookie(options);
  const answer = (pair: TokenPair, request: Request, set: { headers: Record<string, unknown> }) => {
    set.headers['set-cookie'] = cookie.set(pair.refresh_token, request);
    return { access_token: pair.access_token, token_type: pair.token_type, expires_in: pair.expires_in };
  };
  return new Elysia({ prefix: '/console' })
    .use(clientAddress(options.trustProxy))
    .onBeforeHandle({ as: 'local' }, ({ request }) => cookie.assertSameSite(request))
    .post('/login', async ({ body, clientAddress, request, set }) => answer(await auth.login.login(body.email, body.password, clientAddress), request, set), {
      headers: consoleHeader,
      body: m.LoginRequest,
      response: m.ConsoleSessionResponse,
      detail: operation({
        id: 'logInToConsole',
        tags,
        summary: 'Log in to the web console: the refresh token is set as a cookie, the access token returned',
        description: extension,
        errors: [401, 403, 429],
        successHeaders: ['Set-Cookie'],
      }),
    })
    .post(
      '/refresh',
      async ({ request, set }) => {
        const token = cookie.read(request);
        if (!token) throw new AppError('NOT_AUTHENTICATED', 'No console session', { hint: 'Log in.' });
        try {
          return answer(await auth.sessions.refresh(token), request, set);
        } catch (error) {
          // A refresh token that no longer works never will: the browser forgets it.
          if (error instanceof AppError) error.headers['set-cookie'] = cookie.clear(request);
          throw error;
        }
      },
      {
        headers: consoleHeader,
        response: m.ConsoleSessionResponse,
        detail: {
          ...operation({
            id: 'refreshConsoleSession',
            tags,
            summary: "A fresh access token for the console's session cookie (the cookie is rotated)",
            description: `${extension} A cookie that no longer works is cleared with the 401.`,
            errors: [403],
            successHeaders: ['Set-Cookie'],
          }),
          security: cookieSecurity,
        },
      },
    )
    .post(
      '/logout',
      async ({ request, set }) => {
        const token = cookie.read(request);
        if (token) await auth.sessions.close(token);
        set.headers['set-cookie'] = cookie.clear(request);
        set.status = 204;
      },
      {
        headers: consoleHeader,
        detail: operation({
          id: 'logOutOfConsole',
          tags,
          summary: "End the console's session and clear its cookie",
          description: `${extension} To end every session of the account, call logOutEverywhere first.`,
          errors: [403],
          success: [{ status: 204, body: 'none' }],
          successHeaders: ['Set-Cookie'],
        }),
      },
    );
}
