import { AppError } from '../errors/app-error';
import type { AuthContext } from './auth-context';
import type { LoginThrottle } from './login-throttle';
import { normalizeEmail } from './normalize-email';
import { verifyPassword } from './passwords';
import { findActiveUserByEmail, type UserRow } from './queries/users';
import type { TokenPair } from './token-pair';

/** Password login, throttled per account and per client address. */
export class Login {
  constructor(
    private readonly ctx: AuthContext,
    private readonly throttle: LoginThrottle,
  ) {}

  async login(emailInput: string, password: string, clientAddress: string | undefined): Promise<TokenPair> {
    const user = await this.checkCredentials(emailInput, password, clientAddress);
    return this.ctx.sessions.start(user);
  }

  /** The account behind a correct, verified e-mail and password (also used by the CLI login form). */
  async checkCredentials(emailInput: string, password: string, clientAddress: string | undefined): Promise<UserRow> {
    const email = normalizeEmail(emailInput);
    await this.throttle.assertAllowed(email, clientAddress);
    const user = await this.ctx.store.first(findActiveUserByEmail, { email });
    if (!(await verifyPassword(password, user?.password_hash))) {
      await this.throttle.recordFailure(email, clientAddress);
      throw new AppError('INVALID_CREDENTIALS', 'Incorrect e-mail or password');
    }
    await this.throttle.recordSuccess(email);
    if (!user!.email_verified_at) {
      throw new AppError('EMAIL_NOT_VERIFIED', 'Verify your e-mail address before logging in', {
        hint: 'Follow the link in the verification e-mail, or ask for a new one with POST /api/v1/auth/resend-verification.',
      });
    }
    return user!;
  }
}
