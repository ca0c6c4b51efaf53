import { Elysia } from 'elysia';
import type { AuthServices } from '../../auth/auth-services';
import { authentication } from '../plugins/authentication';
import { operation } from '../openapi/operation';
import { authModels as m } from './model';

const tags = ['Account'];

export function accountRoutes(auth: AuthServices) {
  return new Elysia()
    .use(authentication(auth.authenticator))
    .get('/me', ({ caller }) => auth.profile.me(caller.userId), {
      auth: 'user',
      response: m.UserResponse,
      detail: operation({ id: 'getCurrentUser', tags, summary: 'The signed-in account' }),
    })
    .post(
      '/me/change-password',
      async ({ caller, body }) => {
        await auth.profile.changePassword(caller.userId, body.current_password, body.new_password);
        return { message: 'Your password has been changed. Every session has been signed out.' };
      },
      {
        auth: 'user',
        body: m.ChangePasswordRequest,
        response: m.MessageResponse,
        detail: operation({ id: 'changePassword', tags, summary: 'Change the password (ends every session)' }),
      },
    )
    .post('/me/change-email', ({ caller, body }) => auth.profile.requestEmailChange(caller.userId, body.new_email, body.password), {
      auth: 'user',
      body: m.ChangeEmailRequest,
      response: m.UserResponse,
      detail: operation({ id: 'changeEmail', tags, summary: 'Change the address; it switches once the new address is confirmed', errors: [400, 409] }),
    })
    .post(
      '/me/delete-account',
      async ({ caller, body, set }) => {
        await auth.deletion.delete(caller.userId, body.password);
        set.status = 204;
      },
      {
        auth: 'user',
        body: m.PasswordRequest,
        detail: operation({
          id: 'deleteAccount',
          tags,
          summary: 'Delete the account (access ends now, data is purged after the retention period)',
          errors: [409, 503],
          success: [{ status: 204, body: 'none' }],
        }),
      },
    );
}
