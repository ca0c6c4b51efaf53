import { Elysia } from 'elysia';
import type { AuthServices } from '../../auth/auth-services';
import { operation } from '../openapi/operation';
import { authModels as m } from './model';

const tags = ['Authentication'];
// The same answer whether or not the address has an account.
const checkInbox = { message: 'If the address can receive it, a message is on its way. Check your inbox.' };

export function registrationRoutes(auth: AuthServices) {
  return new Elysia()
    .get('/registration-status', () => auth.registration.status(), {
      response: m.RegistrationStatusResponse,
      detail: operation({ id: 'getRegistrationStatus', tags, summary: 'Whether sign-up is open, waitlisted or closed' }),
    })
    .post(
      '/waitlist',
      async ({ body, set }) => {
        await auth.registration.joinWaitlist(body.email);
        set.status = 201;
        return { message: 'You are on the waitlist.' };
      },
      {
        body: m.WaitlistRequest,
        response: { 201: m.MessageResponse },
        detail: operation({ id: 'joinWaitlist', tags, summary: 'Join the waitlist (201 even when already listed)', errors: [403] }),
      },
    )
    .post(
      '/signup',
      async ({ body, set }) => {
        await auth.registration.signup(body);
        set.status = 201;
        return checkInbox;
      },
      {
        body: m.SignupRequest,
        response: { 201: m.MessageResponse },
        detail: operation({ id: 'signUp', tags, summary: 'Create an account; a verification e-mail follows', errors: [403] }),
      },
    )
    .post(
      '/verify-email',
      async ({ body }) => {
        await auth.registration.verifyEmail(body.token);
        return { message: 'Your e-mail address is verified.' };
      },
      {
        body: m.TokenRequest,
        response: m.MessageResponse,
        detail: operation({ id: 'verifyEmail', tags, summary: 'Confirm an address with the token from the e-mail', errors: [400, 409] }),
      },
    )
    .post(
      '/resend-verification',
      async ({ body }) => {
        await auth.registration.resendVerification(body.email);
        return checkInbox;
      },
      {
        body: m.EmailRequest,
        response: m.MessageResponse,
        detail: operation({ id: 'resendVerification', tags, summary: 'Send the verification e-mail again' }),
      },
    )
    .post(
      '/forgot-password',
      async ({ body }) => {
        await auth.passwordReset.requestReset(body.email);
        return checkInbox;
      },
      { body: m.EmailRequest, response: m.MessageResponse, detail: operation({ id: 'requestPasswordReset', tags, summary: 'Send a password reset link' }) },
    )
    .post(
      '/reset-password',
      async ({ body }) => {
        await auth.passwordReset.reset(body.token, body.new_password);
        return { message: 'Your password has been changed. Every session has been signed out.' };
      },
      {
        body: m.ResetPasswordRequest,
        response: m.MessageResponse,
        detail: operation({ id: 'resetPassword', tags, summary: 'Set a new password with the token from the e-mail', errors: [400] }),
      },
    );
}
