import { t } from 'elysia';
import { passwordRules } from '../../auth/passwords';
import { text } from '../text';

const email = text({ format: 'email', maxLength: 320, description: 'E-mail address' });
const password = text({ minLength: 1, maxLength: passwordRules.maxLength });
const newPassword = text({
  minLength: passwordRules.minLength,
  maxLength: passwordRules.maxLength,
  description: `${passwordRules.minLength} to ${passwordRules.maxLength} characters`,
});
const token = text({ minLength: 1, maxLength: 512 });

export const authModels = {
  SignupRequest: t.Object({ email, password: newPassword, name: t.Optional(text({ maxLength: 200 })) }),
  WaitlistRequest: t.Object({ email }),
  LoginRequest: t.Object({ email, password }),
  RefreshRequest: t.Object({ refresh_token: token }),
  EmailRequest: t.Object({ email }),
  TokenRequest: t.Object({ token }),
  ResetPasswordRequest: t.Object({ token, new_password: newPassword }),
  ChangePasswordRequest: t.Object({ current_password: password, new_password: newPassword }),
  ChangeEmailRequest: t.Object({ new_email: email, password }),
  PasswordRequest: t.Object({ password }),
  ExchangeCodeRequest: t.Object({ code: text({ minLength: 1, maxLength: 128 }) }),
  CreateAPIKeyRequest: t.Object({
    name: text({ minLength: 1, maxLength: 100 }),
    expires_at: t.Optional(t.Nullable(t.String({ format: 'date-time', description: 'ISO 8601 time after which the key stops working' }))),
  }),

  TokenResponse: t.Object({ access_token: t.String(), refresh_token: t.String(), token_type: t.Literal('bearer'), expires_in: t.Integer() }),
  ConsoleSessionResponse: t.Object({
    access_token: t.String(),
    token_type: t.Literal('bearer'),
    expires_in: t.Integer({ description: 'Seconds until the access token expires' }),
  }),
  MessageResponse: t.Object({ message: t.String() }),
  RegistrationStatusResponse: t.Object({
    mode: t.Union([t.Literal('open'), t.Literal('waitlist'), t.Literal('closed')]),
    signup_open: t.Boolean(),
    waitlist_open: t.Boolean(),
  }),
  UserResponse: t.Object({
    id: t.String({ format: 'uuid' }),
    email: t.String(),
    name: t.Nullable(t.String()),
    email_verified: t.Boolean(),
    pending_email: t.Nullable(t.String()),
    created_at: t.String({ format: 'date-time' }),
  }),
  SessionCodeResponse: t.Object({ code: t.String(), expires_in: t.Integer() }),
  APIKeyResponse: t.Object({
    id: t.String({ format: 'uuid' }),
    name: t.String(),
    prefix: t.String(),
    created_at: t.String({ format: 'date-time' }),
    expires_at: t.Nullable(t.String({ format: 'date-time' })),
    last_used_at: t.Nullable(t.String({ format: 'date-time' })),
    key: t.Optional(t.String({ description: 'The full key: only in the creation and reveal responses' })),
  }),
};

export const keyIdParams = t.Object({ key_id: t.String({ format: 'uuid' }) });
