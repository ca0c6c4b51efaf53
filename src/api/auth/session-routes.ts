import { Elysia } from 'elysia';
import type { AuthServices } from '../../auth/auth-services';
import { authentication } from '../plugins/authentication';
import { clientAddress } from '../plugins/client-address';
import { operation } from '../openapi/operation';
import { authModels as m } from './model';

const tags = ['Authentication'];

export function sessionRoutes(auth: AuthServices, trustProxy: boolean) {
  return new Elysia()
    .use(authentication(auth.authenticator))
    .use(clientAddress(trustProxy))
    .post('/login', ({ body, clientAddress }) => auth.login.login(body.email, body.password, clientAddress), {
      body: m.LoginRequest,
      response: m.TokenResponse,
      detail: operation({ id: 'logIn', tags, summary: 'Log in with e-mail and password', errors: [401, 403, 429] }),
    })
    .post('/refresh', ({ body }) => auth.sessions.refresh(body.refresh_token), {
      body: m.RefreshRequest,
      response: m.TokenResponse,
      detail: operation({ id: 'refreshTokens', tags, summary: 'Exchange a refresh token for a new pair (the old one stops working)', errors: [401] }),
    })
    .post(
      '/logout',
      async ({ body, set }) => {
        await auth.sessions.close(body.refresh_token);
        set.status = 204;
      },
      {
        body: m.RefreshRequest,
        detail: operation({ id: 'logOut', tags, summary: 'End the session of a refresh token', success: [{ status: 204, body: 'none' }] }),
      },
    )
    .post(
      '/logout-everywhere',
      async ({ caller, set }) => {
        await auth.sessions.endEverywhere(caller.userId);
        set.status = 204;
      },
      {
        auth: 'user',
        detail: operation({
          id: 'logOutEverywhere',
          tags,
          summary: 'End every session of the account: all refresh tokens and every access token handed out (API keys stay)',
          description: 'An extension of the interface (the console’s "log out everywhere").',
          success: [{ status: 204, body: 'none' }],
        }),
      },
    )
    .post('/session-token', async ({ caller }) => auth.sessions.start(await auth.profile.account(caller.userId)), {
      auth: 'user-or-api-key',
      response: m.TokenResponse,
      detail: operation({ id: 'createSessionToken', tags, summary: 'A fresh token pair for the current API key or access token' }),
    })
    .post('/session-code', ({ caller }) => auth.sessionCodes.create(caller.userId), {
      auth: 'user',
      response: m.SessionCodeResponse,
      detail: operation({ id: 'createSessionCode', tags, summary: 'A one-time code (60 s) that another client exchanges for a session' }),
    })
    .post('/exchange-code', ({ body }) => auth.sessionCodes.exchange(body.code), {
      body: m.ExchangeCodeRequest,
      response: m.TokenResponse,
      detail: operation({ id: 'exchangeSessionCode', tags, summary: 'Exchange a one-time code for a token pair', errors: [401] }),
    });
}
