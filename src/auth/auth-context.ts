import type { SignupMode } from '../config';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { MailOutbox } from '../mail/outbox';
import type { MailDispatch } from '../mail/mail-dispatch';
import type { AccountHooks } from './account-hooks';
import type { EmailLinks } from './email-links';
import type { Sessions } from './sessions';

/** What the account services share; built once in the composition root. */
export interface AuthContext {
  store: Store;
  clock: Clock;
  outbox: MailOutbox;
  mail: MailDispatch;
  links: EmailLinks;
  sessions: Sessions;
  hooks: AccountHooks;
  signupMode: SignupMode;
  frontendUrl: string;
}
