import type { Config } from '../config';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import { SealedBox } from '../crypto/sealed-box';
import type { MailOutbox } from '../mail/outbox';
import type { MailDispatch } from '../mail/mail-dispatch';
import { AccessTokens } from './access-tokens';
import { AccountDeletion, type RetentionScheduler } from './account-deletion';
import type { AccountHooks } from './account-hooks';
import { ApiKeys } from './api-keys';
import type { AuthContext } from './auth-context';
import { Authenticator } from './authenticator';
import { EmailLinks } from './email-links';
import { Login } from './login';
import { LoginThrottle } from './login-throttle';
import { PasswordReset } from './password-reset';
import { Profile } from './profile';
import { Registration } from './registration';
import { SessionCodes } from './session-codes';
import { Sessions } from './sessions';

export interface AuthServices {
  registration: Registration;
  login: Login;
  passwordReset: PasswordReset;
  profile: Profile;
  deletion: AccountDeletion;
  sessions: Sessions;
  sessionCodes: SessionCodes;
  apiKeys: ApiKeys;
  authenticator: Authenticator;
}

export interface AuthDeps {
  config: Config;
  store: Store;
  clock: Clock;
  outbox: MailOutbox;
  mail: MailDispatch;
  hooks: AccountHooks;
  retention: RetentionScheduler;
}

export function createAuthServices(deps: AuthDeps): AuthServices {
  const sealedBox = new SealedBox(deps.config.secrets.encryptionKey);
  const accessTokens = new AccessTokens(deps.config.secrets.jwtSecret, deps.clock);
  const sessions = new Sessions(deps.store, accessTokens, deps.clock);
  const ctx: AuthContext = {
    store: deps.store,
    clock: deps.clock,
    outbox: deps.outbox,
    mail: deps.mail,
    links: new EmailLinks(deps.config.http.frontendUrl, deps.clock),
    sessions,
    hooks: deps.hooks,
    signupMode: deps.config.auth.signupMode,
    frontendUrl: deps.config.http.frontendUrl,
  };
  const profile = new Profile(ctx);
  const apiKeys = new ApiKeys(deps.store, sealedBox, deps.clock);
  return {
    registration: new Registration(ctx),
    login: new Login(ctx, new LoginThrottle(deps.store, deps.clock)),
    passwordReset: new PasswordReset(ctx),
    profile,
    deletion: new AccountDeletion(ctx, profile, deps.retention, deps.config.auth.accountRetentionMs),
    sessions,
    sessionCodes: new SessionCodes(ctx, sealedBox),
    apiKeys,
    authenticator: new Authenticator(deps.store, accessTokens, apiKeys),
  };
}
