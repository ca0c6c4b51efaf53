import { createAccountActivities } from '../../activities/account-activities';
import type { AccountHooks } from '../../auth/account-hooks';
import { createAuthServices } from '../../auth/auth-services';
import { pruneEmailTokens } from '../../auth/queries/email-tokens';
import { pruneLoginFailures } from '../../auth/queries/login-failures';
import { pruneRefreshTokens } from '../../auth/queries/refresh-tokens';
import { pruneSessionCodes } from '../../auth/queries/session-codes';
import type { MailDispatch } from '../../mail/mail-dispatch';
import type { MailOutbox } from '../../mail/outbox';
import { accountRetentionClient } from '../../workflow-clients/account-retention';
import type { FeatureWiring } from '../feature';
import type { FeatureDeps } from './deps';

export interface AccountsFeatureDeps extends FeatureDeps {
  mail: { outbox: MailOutbox; dispatch: MailDispatch };
  hooks: AccountHooks;
}

/** Accounts, sessions, API keys, and each deleted account's retention workflow. */
export function accountsFeature({ config, infra, logger, clock, mail, hooks }: AccountsFeatureDeps) {
  const auth = createAuthServices({
    config,
    store: infra.store,
    clock,
    outbox: mail.outbox,
    mail: mail.dispatch,
    hooks,
    retention: accountRetentionClient(infra.temporal),
  });
  const wiring = {
    activities: createAccountActivities({ store: infra.store, clock, hooks, logger: logger.child({ component: 'accounts' }) }),
    prune: [pruneLoginFailures, pruneSessionCodes, pruneEmailTokens, pruneRefreshTokens],
  } satisfies FeatureWiring;
  return { auth, wiring };
}
